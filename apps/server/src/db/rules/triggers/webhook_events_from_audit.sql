-- Administrative changes reach webhooks from their audit row, written in the change's own
-- transaction: each action below is one event of the organization it is about. The trigger
-- fires only for these actions, so sign-ins and usage reports cost nothing.
create or replace function webhook_events_from_audit() returns trigger language plpgsql as $$
declare
  d jsonb := coalesce(new.details, '{}'::jsonb);
  v_active integer;
  v_limit integer;
begin
  case new.action
    when 'organization.create' then
      insert into webhook_events (type, organization_id, data)
      select 'organization.created', o.id,
        jsonb_build_object('org_type', o.org_type,
          'parent', (select jsonb_build_object('id', p.id, 'name', p.name) from organizations p where p.id = o.parent_org_id))
      from organizations o where o.id = new.target_id::uuid;
    when 'organization.update' then
      if d -> 'after' ->> 'status' = 'suspended' and coalesce(d -> 'before' ->> 'status', '') <> 'suspended' then
        insert into webhook_events (type, organization_id, data)
        values ('organization.suspended', new.target_id::uuid, jsonb_build_object('status', 'suspended'));
      end if;
    when 'organization.delete' then
      insert into webhook_events (type, organization_id, data) values ('organization.deleted', new.target_id::uuid, '{}');
    when 'billing.agent_limit' then
      insert into webhook_events (type, organization_id, data)
      values ('agent_limit.changed', new.target_id::uuid,
        jsonb_build_object('before', (d ->> 'before')::integer, 'after', (d ->> 'after')::integer));
    when 'agent.activate' then
      insert into webhook_events (type, organization_id, data)
      values ('agent.activated', new.organization_id, jsonb_build_object('activation_id', new.target_id, 'agent', d ->> 'code'));
      -- The activation that takes the active count to 75 % (warning) or 90 % (critical) of the limit.
      v_active := (d ->> 'active')::integer;
      v_limit := (d ->> 'limit')::integer;
      if v_limit > 0 then
        if v_active * 100 >= v_limit * 90 and (v_active - 1) * 100 < v_limit * 90 then
          insert into webhook_events (type, organization_id, data)
          values ('agent_limit.critical', new.organization_id,
            jsonb_build_object('active', v_active, 'limit', v_limit, 'percent', v_active * 100 / v_limit));
        elsif v_active * 100 >= v_limit * 75 and (v_active - 1) * 100 < v_limit * 75 then
          insert into webhook_events (type, organization_id, data)
          values ('agent_limit.warning', new.organization_id,
            jsonb_build_object('active', v_active, 'limit', v_limit, 'percent', v_active * 100 / v_limit));
        end if;
      end if;
    when 'agent.deactivate' then
      insert into webhook_events (type, organization_id, data)
      select 'agent.deactivated', new.organization_id, jsonb_build_object('activation_id', new.target_id, 'agent', t.code)
      from agent_types t where t.id = (d ->> 'agent_type_id')::uuid;
    -- A heartbeat reports no message: the event's message is null, a field of its payload.
    when 'agents.status_reported' then
      if d ->> 'to' = 'error' then
        insert into webhook_events (type, organization_id, data)
        values ('agent.error', new.organization_id,
          jsonb_build_object('activation_id', new.target_id, 'agent', d ->> 'agent',
            'health', (d ->> 'health_score')::integer, 'message', null::text));
      end if;
    when 'api_key.create' then
      insert into webhook_events (type, organization_id, data)
      values ('api_key.created', new.organization_id,
        jsonb_build_object('api_key_id', new.target_id, 'name', d ->> 'name', 'prefix', d ->> 'prefix'));
    when 'api_key.rolled' then
      insert into webhook_events (type, organization_id, data)
      values ('api_key.rolled', new.organization_id,
        jsonb_build_object('api_key_id', new.target_id, 'prefix', d ->> 'prefix', 'previous_prefix', d ->> 'previous_prefix',
          'grace_seconds', (d ->> 'grace_seconds')::integer));
    when 'api_key.revoke' then
      insert into webhook_events (type, organization_id, data)
      values ('api_key.revoked', new.organization_id, jsonb_build_object('api_key_id', new.target_id, 'prefix', d ->> 'prefix'));
    when 'invitation.accept', 'invitation.register' then
      insert into webhook_events (type, organization_id, data)
      select 'invitation.accepted', new.organization_id,
        jsonb_build_object('invitation_id', new.target_id, 'email', u.email, 'role', d ->> 'role')
      from users u where u.id = new.actor_user_id;
    when 'top_up.made' then
      insert into webhook_events (type, organization_id, data)
      select 'top_up.succeeded', new.target_id::uuid,
        jsonb_build_object('amount', d ->> 'amount', 'from_organization', jsonb_build_object('id', p.id, 'name', p.name),
          'balance_before', d ->> 'balance_before')
      from organizations p where p.id = new.organization_id;
    -- Second factors: who and which kind, never a secret. The event is the person's organization's.
    when 'auth.mfa_enrolled', 'auth.mfa_removed', 'auth.mfa_passkey_added', 'auth.mfa_passkey_removed' then
      insert into webhook_events (type, organization_id, data)
      select case when new.action in ('auth.mfa_enrolled', 'auth.mfa_passkey_added') then 'member.factor_added'
          else 'member.factor_removed' end,
        u.organization_id,
        jsonb_build_object('user_id', u.id, 'email', u.email,
          'method', case when new.action like 'auth.mfa_passkey_%' then 'passkey' else 'totp' end)
      from users u where u.id = new.target_id::uuid;
    when 'auth.mfa_reset' then
      insert into webhook_events (type, organization_id, data)
      select 'member.factors_reset', u.organization_id,
        jsonb_build_object('user_id', u.id, 'email', u.email, 'reset_by', new.actor_user_id)
      from users u where u.id = new.target_id::uuid;
    -- The policy as the change left it (the audit row's `after`: switches and grace, no secret), and who changed it.
    when 'mfa_policy.changed' then
      insert into webhook_events (type, organization_id, data)
      values ('organization.mfa_policy_changed', new.organization_id,
        jsonb_build_object('changed_by', new.actor_user_id,
          'policy', case when jsonb_typeof(d -> 'after') = 'object' then d -> 'after' else '{}'::jsonb end));
    else
      null;
  end case;
  return null;
end;
$$;

create or replace trigger webhook_events_from_audit_trg after insert on audit_log
  for each row
  when (new.action in ('organization.create', 'organization.update', 'organization.delete', 'billing.agent_limit',
    'agent.activate', 'agent.deactivate', 'agents.status_reported', 'api_key.create', 'api_key.rolled', 'api_key.revoke',
    'invitation.accept', 'invitation.register', 'top_up.made',
    'auth.mfa_enrolled', 'auth.mfa_removed', 'auth.mfa_passkey_added', 'auth.mfa_passkey_removed', 'auth.mfa_reset',
    'mfa_policy.changed'))
  execute function webhook_events_from_audit();
