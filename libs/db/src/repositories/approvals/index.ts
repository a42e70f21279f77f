export {
  approvalOfCall,
  approvalOfCampaign,
  approvedToolOfTarget,
  openCallApproval,
  recordPreflight,
  showPlatformApproval,
  type ApprovalRecord,
} from './call-approvals.repository';
