export {
  approvalOfCall,
  approvalOfCampaign,
  approvedToolOfTarget,
  openCallApproval,
  recordPreflight,
  type ApprovalRecord,
} from './call-approvals.repository';
