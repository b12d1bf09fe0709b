import { agentsEndpoints as endpoints, type CreateAgentTypeInput, type MonthlyCapInput, type UpdateAgentTypeInput } from '@console/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { invalidate } from './invalidation';
import { LIVE } from './live';
import { agentKeys } from './query-keys';

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

/** Activates an agent type for an organization; the server checks the limit under the organization's lock. */
export function useActivateAgent(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (agentTypeId: string) =>
      (await call(endpoints.activate, { params: { id: organizationId }, body: { agent_type_id: agentTypeId } })).activation,
    onSuccess: () => invalidate(queryClient, 'activationChanged', organizationId),
  });
}

/** Ends an activation: its runtime's usage is refused from then on, and it no longer counts against the limit. */
export function useDeactivateAgent(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (activationId: string) =>
      (await call(endpoints.deactivate, { params: { id: organizationId, activationId } })).activation,
    onSuccess: () => invalidate(queryClient, 'activationChanged', organizationId),
  });
}

/** Sets an activation's monthly cap in credits, or removes it (null); the answer is the activation. */
export function useSetActivationCap(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ activationId, caps }: { activationId: string; caps: MonthlyCapInput }) =>
      (await call(endpoints.setActivationCap, { params: { id: organizationId, activationId }, body: caps })).activation,
    onSuccess: () => invalidate(queryClient, 'activationCapSet', organizationId),
  });
}

/** A catalog change shows in the catalog and in every activation (names, units, prices). */
function useCatalogMutation<T>(mutationFn: (input: T) => Promise<{ agent_type: { name: string } }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: T) => (await mutationFn(input)).agent_type,
    onSuccess: () => invalidate(queryClient, 'agentCatalogChanged'),
  });
}

/** Adds an agent type to the catalog (house admins). */
export const useCreateAgentType = () => useCatalogMutation((body: CreateAgentTypeInput) => call(endpoints.createType, { body }));

/** Edits an agent type; a new price applies to events that occur after the change. */
export const useUpdateAgentType = () =>
  useCatalogMutation(({ id, body }: { id: string; body: UpdateAgentTypeInput }) => call(endpoints.updateType, { params: { id }, body }));

/** Retires an agent type: no new activations, existing ones keep running. */
export const useRetireAgentType = () => useCatalogMutation((id: string) => call(endpoints.retireType, { params: { id } }));
