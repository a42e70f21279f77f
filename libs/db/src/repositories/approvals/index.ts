export {
  approvalOfCall,
  approvalOfCampaign,
  openCallApproval,
  recordPreflight,
  type ApprovalRecord,
} from './call-approvals.repository';
