-- PowderMeet's meet requests: one row per proposed meet between two friends,
-- carrying everything the receiver needs to activate exactly what the sender
-- planned (the dataset identity, the rendezvous point, both exact starts,
-- both full paths with ETAs and their standard deviations), and its state:
--
--   pending ──accept (receiver)──▶ accepted ──end (either party)──▶ expired
--      │ decline (receiver)            
--      ▼                              
--   declined        pending ──cancel (sender) / receiver / sweep──▶ expired
--
-- declined and expired are terminal. The state machine is a BEFORE UPDATE
-- trigger (sql/0065_meet_requests.sql); writes go through the meet RPCs.
--
-- end_intents are the durable end tombstones: a party records the intent to
-- end a meet before its UI lets go of it, and the row is removed only in the
-- transaction in which the server accepts the end. An intent that is still
-- there wins over recovery and is retried.
--
-- Tables only: functions, triggers and policies are repeatable definitions.

create schema if not exists meet;
grant usage on schema meet to anon, authenticated, service_role;

create table meet.meet_requests (
  id uuid primary key default gen_random_uuid(),
  sender_id uuid not null references social.profiles (id) on delete cascade,
  receiver_id uuid not null references social.profiles (id) on delete cascade,
  resort_id text not null,
  -- The catalog entry (rp<anchor>) and its node (n<anchor>) in that dataset.
  rendezvous_point_id text not null,
  meeting_node_id text not null,
  meeting_node_elevation double precision,
  meeting_node_display_name text not null,
  -- Legacy start nodes (node starts only); the exact starts are below.
  sender_position_node_id text,
  receiver_position_node_id text,
  -- {"node": id} or {"edge": id, "fraction": 0..1}, optionally "accuracy_m".
  sender_start jsonb not null,
  receiver_start jsonb not null,
  sender_eta_seconds double precision not null,
  receiver_eta_seconds double precision not null,
  sender_eta_std_seconds double precision not null,
  receiver_eta_std_seconds double precision not null,
  sender_path_edge_ids text[] not null,
  receiver_path_edge_ids text[] not null,
  status text not null default 'pending',
  created_at timestamptz not null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  updated_at timestamptz not null,
  graph_snapshot_date date,
  manifest_version integer,
  -- m<manifest>-<graph version>-<64 hex sha>; null only on legacy rows, which cannot activate.
  dataset_version text,
  ended_at timestamptz,
  ended_by uuid references social.profiles (id) on delete set null,
  constraint meet_requests_parties check (sender_id <> receiver_id),
  constraint meet_requests_status check (status in ('pending', 'accepted', 'declined', 'expired')),
  constraint meet_requests_rendezvous check (rendezvous_point_id ~ '^rp[0-9]+$' and meeting_node_id ~ '^n[0-9]+$'
    and substr(rendezvous_point_id, 3) = substr(meeting_node_id, 2)),
  constraint meet_requests_display_name check (btrim(meeting_node_display_name) <> ''),
  constraint meet_requests_etas check (
    sender_eta_seconds >= 0 and receiver_eta_seconds >= 0
    and sender_eta_std_seconds >= 0 and receiver_eta_std_seconds >= 0
    and sender_eta_seconds < 86400 and receiver_eta_seconds < 86400),
  constraint meet_requests_starts check (jsonb_typeof(sender_start) = 'object' and jsonb_typeof(receiver_start) = 'object'),
  constraint meet_requests_dataset_version check (
    dataset_version is null or dataset_version ~ '^m[1-9][0-9]{0,8}-v[0-9]+-[0-9a-f]{64}$'),
  constraint meet_requests_window check (expires_at > created_at)
);
create index meet_requests_sender on meet.meet_requests (sender_id, created_at desc);
create index meet_requests_receiver on meet.meet_requests (receiver_id, created_at desc);
create index meet_requests_pending_expiry on meet.meet_requests (expires_at) where status = 'pending';

create table meet.end_intents (
  user_id uuid not null references social.profiles (id) on delete cascade,
  request_id uuid not null references meet.meet_requests (id) on delete cascade,
  created_at timestamptz not null,
  primary key (user_id, request_id)
);

alter table meet.meet_requests enable row level security;
alter table meet.end_intents enable row level security;

revoke all on meet.meet_requests, meet.end_intents from anon, authenticated;
-- Parties read their requests and move them under the state machine; an
-- insert must come from the sender, to a friend neither has blocked (policy
-- and trigger in sql/). Each user sees and manages only their own end intents.
grant select, insert, update on meet.meet_requests to authenticated;
grant select, insert, delete on meet.end_intents to authenticated;
grant all on meet.meet_requests, meet.end_intents to service_role;
