-- An invitation superseded by another: once an account exists for an e-mail (registered or
-- moved by accepting an invitation), the other pending invitations for that e-mail are
-- revoked, each pointing at the invitation that was accepted, so its link can say why.
alter table invitations add column superseded_by uuid references invitations (id);
alter table invitations add constraint invitations_superseded_is_revoked check (superseded_by is null or status = 'revoked');

-- The pending invitations of one e-mail across organizations.
create index invitations_pending_email_any_org_idx on invitations (lower(email)) where status = 'pending';
