// Relative, not through '@/': the e2e journeys read every feature's words from outside the app's alias.
import { withFeatureWords } from '../../lib/wording';

/** The words only the debug feature shows, over the console's shared ones (`withFeatureWords`). */
export const MESSAGES = withFeatureWords({
  /** Labels of the debug tools. */
  debugPages: {
    tabAuthentication: 'Authentication',
    tabOrganizations: 'Organizations',
    tabParsingLogs: 'Parsing Logs',
    tabOutbox: 'Outbox',
    roleVerification: 'Role Verification',
    verified: 'Verified',
    roleMismatch: 'Role Mismatch',
    statusBreakdown: 'Status Breakdown',
    includeAll: 'Include all statuses',
    childDebugger: 'Child Organizations Debugger',
    verify: 'Verify',
    refresh: 'Refresh',
    fetchError: 'Error fetching data',
    outboxEmpty: 'The outbox is empty.',
  },
});
