-- Whether an account signed in from an address before (any session, ended or not): while its
-- password waits after a run of wrong guesses, the right one from such an address still works.
create index refresh_sessions_user_ip_idx on refresh_sessions (user_id, ip, created_at desc);
