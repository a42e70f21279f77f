export { ToolProfilesRepository, type ToolProfileRow } from './tool-profiles.repository';
export {
  ToolProfileProposalsRepository,
  type CatalogOfModel,
  type ProposalRow,
} from './tool-profile-proposals.repository';
