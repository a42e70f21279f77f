export { ToolProfilesRepository, type ToolProfileRow } from './tool-profiles.repository';
export {
  ToolProfileProposalsRepository,
  type CatalogInUse,
  type ProposalRow,
} from './tool-profile-proposals.repository';
