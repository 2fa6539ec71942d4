-- Push notifications: the devices people register for Apple's push service,
-- and the outbox the worker delivers from.
--
-- social.device_tokens: one row per APNs device token. A token belongs to one
-- person at a time (the phone signed in last); registering it as someone else
-- moves it. People read their own tokens; registering and removing go through
-- social.register_device_token and social.unregister_device_token (sql/0095_push.sql).
--
-- push.outbox: one row per notification to one device, written by AFTER
-- triggers in the transaction of the change it announces, read and updated only
-- by the worker (service role) through push.claim_due and push.record_*.
-- Nobody else can see the schema.
--
-- Tables only: functions, triggers, policies and grants are repeatable
-- definitions in sql/0095_push.sql.

create table social.device_tokens (
  id uuid primary key default gen_random_uuid(),
  profile_id uuid not null references social.profiles (id) on delete cascade,
  -- lower-case hex, as the apps send it
  token text not null,
  environment text not null,
  platform text not null default 'ios',
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint device_tokens_token_format check (token ~ '^[0-9a-f]{64,200}$'),
  constraint device_tokens_environment check (environment in ('sandbox', 'production')),
  constraint device_tokens_platform check (platform in ('ios', 'ipados', 'macos', 'watchos', 'visionos'))
);
create unique index device_tokens_token_key on social.device_tokens (token);
create index device_tokens_profile on social.device_tokens (profile_id, updated_at desc);

alter table social.device_tokens enable row level security;
revoke all on social.device_tokens from anon, authenticated;
-- Own rows only (policy); registering, moving and removing go through the RPCs
-- (clients hold no DELETE on app tables).
grant select on social.device_tokens to authenticated;
grant all on social.device_tokens to service_role;

create schema if not exists push;
revoke all on schema push from public;
grant usage on schema push to service_role;

create table push.outbox (
  id bigint generated always as identity primary key,
  kind text not null,
  recipient_id uuid not null references social.profiles (id) on delete cascade,
  actor_id uuid references social.profiles (id) on delete cascade,
  -- A token that goes (unregistered, moved to someone else, or dead) takes its
  -- undelivered notifications with it: they were meant for that person on that phone.
  device_token_id uuid not null references social.device_tokens (id) on delete cascade,
  -- the friend request or meet request the notification is about
  subject_id uuid,
  -- the APNs JSON body ({"aps": …} plus the app's fields)
  payload jsonb not null,
  -- apns-collapse-id: a later notification about the same subject replaces it on the phone
  collapse_id text not null,
  status text not null default 'pending',
  attempts integer not null default 0,
  -- when the row may next be claimed; a claim pushes it forward by the lease,
  -- so a worker that dies mid-delivery leaves it to be claimed again
  next_attempt_at timestamptz not null,
  -- the current claim: the delivering worker reports under it
  claim_id uuid,
  claimed_by text,
  last_http_status integer,
  last_error text,
  created_at timestamptz not null,
  finished_at timestamptz,
  constraint outbox_kind check (kind in ('friend_request', 'friend_added', 'meet_request', 'meet_started')),
  constraint outbox_status check (status in ('pending', 'delivered', 'failed', 'dropped')),
  constraint outbox_finished check ((status = 'pending') = (finished_at is null)),
  constraint outbox_collapse_id check (octet_length(collapse_id) between 1 and 64)
);
create index outbox_due on push.outbox (next_attempt_at) where status = 'pending';
create index outbox_finished_at on push.outbox (finished_at) where status <> 'pending';
create index outbox_recipient on push.outbox (recipient_id);
create index outbox_actor on push.outbox (actor_id);
create index outbox_device_token on push.outbox (device_token_id);

alter table push.outbox enable row level security;
revoke all on push.outbox from public, anon, authenticated;
grant all on push.outbox to service_role;
