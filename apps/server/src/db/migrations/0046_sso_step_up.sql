-- A step-up through the organization's provider: the pending sign-in names the session whose
-- proof it renews (`step_up_session_id`) and the console path the browser goes back to
-- (`return_to`); it starts no session. The two are set together, and never on a test sign-in.
alter table sso_sign_ins add column step_up_session_id uuid references refresh_sessions (id);
alter table sso_sign_ins add column return_to text check (char_length(return_to) <= 2000);
alter table sso_sign_ins add constraint sso_sign_ins_step_up_pair check ((step_up_session_id is null) = (return_to is null));
alter table sso_sign_ins add constraint sso_sign_ins_step_up_not_test check (step_up_session_id is null or tested_by is null);
