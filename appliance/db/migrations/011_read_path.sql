-- The read path (docs/decisions.md, "The read path"): every node caches API keys for at most a
-- second and forgets an account's keys as soon as a change that auth cares about commits.
create function notify_api_key_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('svc_api_keys', coalesce(new.account_id, old.account_id));
  return null;
end $$;

create function notify_account_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('svc_api_keys', coalesce(new.id, old.id));
  return null;
end $$;

create trigger api_keys_notify_change after update or delete on api_keys
  for each row execute function notify_api_key_change();

-- Money columns change with every charge and are never read from the cached account: not those.
create trigger accounts_notify_change after update on accounts
  for each row when ((old.state, old.trusted, old.billing_mode, old.name, old.recording_retention_days)
    is distinct from (new.state, new.trusted, new.billing_mode, new.name, new.recording_retention_days))
  execute function notify_account_change();

create trigger accounts_notify_delete after delete on accounts
  for each row execute function notify_account_change();
