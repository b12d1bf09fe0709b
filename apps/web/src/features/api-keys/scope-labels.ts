import type { ApiScope } from '@console/domain';

/** What each scope lets a key do, as its checkbox says it. */
export const API_SCOPE_LABELS: Record<ApiScope, { label: string; description: string }> = {
  'usage:write': { label: 'Report usage', description: 'Send usage events, which are charged in credits.' },
  'agents:report': { label: 'Report status', description: "Send an agent's status and health score." },
  'entitlements:read': { label: 'Check entitlements', description: 'Ask whether an organization may use an agent now, with its balance.' },
  'usage:read': { label: 'Read usage', description: 'List the usage events recorded for an organization, with what each was charged.' },
};
