import { agentsEndpoints as endpoints, type CreateAgentTypeInput, type MonthlyCapInput, type UpdateAgentTypeInput } from '@console/domain';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { dashboardKeys } from './dashboard';
import { LIVE } from './live';
import { billingKeys, organizationKeys } from './query-keys';

/** Every agents query key, so invalidations name what they refresh. */
export const agentKeys = {
  all: ['agents'] as const,
  types: ['agents', 'types'] as const,
  activationsOf: ['agents', 'activations'] as const,
  activations: (organizationId: string) => ['agents', 'activations', organizationId] as const,
};

export const agentQueries = {
  /** The agent catalog: every type with its unit and current price, retired ones too. */
  types: () =>
    queryOptions({
      queryKey: agentKeys.types,
      queryFn: ({ signal }) => call(endpoints.listTypes, {}, { signal }),
      select: (answer) => answer.agent_types,
    }),
  /** An organization's live activations with their runtime status, health and usage of the last 30 days; runtimes report on their own, so it is live. */
  activations: (organizationId: string) =>
    queryOptions({
      queryKey: agentKeys.activations(organizationId),
      queryFn: ({ signal }) => call(endpoints.listActivations, { params: { id: organizationId } }, { signal }),
      ...LIVE,
    }),
};

/**
 * An activation changes the live count that every agent limit card, the organization's
 * detail and the dashboard show, so all of them are asked again.
 */
async function afterActivationChange(queryClient: QueryClient, organizationId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: agentKeys.activations(organizationId) }),
    queryClient.invalidateQueries({ queryKey: billingKeys.all }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
    queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
  ]);
}

/** Activates an agent type for an organization; the server checks the limit under the organization's lock. */
export function useActivateAgent(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (agentTypeId: string) =>
      (await call(endpoints.activate, { params: { id: organizationId }, body: { agent_type_id: agentTypeId } })).activation,
    onSuccess: () => afterActivationChange(queryClient, organizationId),
  });
}

/** Ends an activation: its runtime's usage is refused from then on, and it no longer counts against the limit. */
export function useDeactivateAgent(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (activationId: string) =>
      (await call(endpoints.deactivate, { params: { id: organizationId, activationId } })).activation,
    onSuccess: () => afterActivationChange(queryClient, organizationId),
  });
}

/** Sets an activation's monthly cap in credits, or removes it (null); the answer is the activation. */
export function useSetActivationCap(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ activationId, caps }: { activationId: string; caps: MonthlyCapInput }) =>
      (await call(endpoints.setActivationCap, { params: { id: organizationId, activationId }, body: caps })).activation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.activations(organizationId) }),
  });
}

/** A catalog change shows in the catalog and in every activation (names, units, prices). */
function useCatalogMutation<T>(mutationFn: (input: T) => Promise<{ agent_type: { name: string } }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: T) => (await mutationFn(input)).agent_type,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** Adds an agent type to the catalog (house admins). */
export const useCreateAgentType = () => useCatalogMutation((body: CreateAgentTypeInput) => call(endpoints.createType, { body }));

/** Edits an agent type; a new price applies to events that occur after the change. */
export const useUpdateAgentType = () =>
  useCatalogMutation(({ id, body }: { id: string; body: UpdateAgentTypeInput }) => call(endpoints.updateType, { params: { id }, body }));

/** Retires an agent type: no new activations, existing ones keep running. */
export const useRetireAgentType = () => useCatalogMutation((id: string) => call(endpoints.retireType, { params: { id } }));
