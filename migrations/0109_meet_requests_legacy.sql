-- Legacy meet requests: what the PowderMeet app sends today carries no dataset
-- identity, no rendezvous catalog id, no exact starts and no ETA spreads. The
-- seed keeps such a request as legacy: stored, moved through the same state
-- machine between friends, never reported as canonical or exact. A canonical
-- request (dataset_version set) still needs every field.

alter table meet.meet_requests
  alter column rendezvous_point_id drop not null,
  alter column sender_start drop not null,
  alter column receiver_start drop not null,
  alter column sender_eta_seconds drop not null,
  alter column receiver_eta_seconds drop not null,
  alter column sender_eta_std_seconds drop not null,
  alter column receiver_eta_std_seconds drop not null;

alter table meet.meet_requests drop constraint if exists meet_requests_rendezvous;
alter table meet.meet_requests add constraint meet_requests_rendezvous check (
  (dataset_version is null and (rendezvous_point_id is null or rendezvous_point_id ~ '^rp[0-9]+$')
   and char_length(meeting_node_id) between 1 and 200)
  or (rendezvous_point_id ~ '^rp[0-9]+$' and meeting_node_id ~ '^n[0-9]+$'
      and substr(rendezvous_point_id, 3) = substr(meeting_node_id, 2)));

alter table meet.meet_requests drop constraint if exists meet_requests_starts;
alter table meet.meet_requests add constraint meet_requests_starts check (
  (sender_start is null or jsonb_typeof(sender_start) = 'object')
  and (receiver_start is null or jsonb_typeof(receiver_start) = 'object'));

alter table meet.meet_requests drop constraint if exists meet_requests_etas;
alter table meet.meet_requests add constraint meet_requests_etas check (
  coalesce(sender_eta_seconds, 0) >= 0 and coalesce(receiver_eta_seconds, 0) >= 0
  and coalesce(sender_eta_std_seconds, 0) >= 0 and coalesce(receiver_eta_std_seconds, 0) >= 0
  and coalesce(sender_eta_seconds, 0) < 86400 and coalesce(receiver_eta_seconds, 0) < 86400);

-- Everything a canonical request is planned with.
alter table meet.meet_requests drop constraint if exists meet_requests_canonical_complete;
alter table meet.meet_requests add constraint meet_requests_canonical_complete check (
  dataset_version is null
  or (rendezvous_point_id is not null and sender_start is not null and receiver_start is not null
      and sender_eta_seconds is not null and receiver_eta_seconds is not null
      and sender_eta_std_seconds is not null and receiver_eta_std_seconds is not null));
