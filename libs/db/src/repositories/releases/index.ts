export {
  activeVersions,
  replacedVersion,
  versionSignals,
  type ReleaseWindow,
} from './release-signals.repository';
