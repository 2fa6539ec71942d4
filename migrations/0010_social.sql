-- The social core shared by PowderMeet and AirStrive: profiles, friendships,
-- friend requests, blocks, friend codes and links, reports and moderation.
--
-- Tables only (plus indexes, RLS switched on and column grants). Functions,
-- triggers and policies are repeatable definitions in sql/0010..0019.
--
-- Nothing here is readable by anon. Authenticated reads its own profile row
-- through RLS; every other social table is reached only through the
-- SECURITY DEFINER RPCs (get_social_snapshot, my_friends, ...).

create extension if not exists pg_trgm;
create extension if not exists "uuid-ossp";

create schema if not exists social;
-- Internal helpers and trigger functions. Never exposed over HTTP.
create schema if not exists private;

grant usage on schema social to anon, authenticated, service_role;
grant usage on schema private to anon, authenticated, service_role;

-- Names nobody may claim.
create table social.reserved_usernames (
  name text primary key
);
insert into social.reserved_usernames (name) values
  ('admin'), ('administrator'), ('airstrive'), ('powdermeet'), ('summit'), ('support'), ('help'),
  ('moderator'), ('mod'), ('mods'), ('staff'), ('team'), ('official'), ('system'), ('settings'),
  ('api'), ('www'), ('root'), ('me'), ('null'), ('undefined'), ('former_member'), ('anonymous'),
  ('everyone'), ('security'), ('privacy'), ('legal'), ('about'), ('login'), ('logout'), ('signup'),
  ('account'), ('profile'), ('friends'), ('atlas'), ('grids'), ('groups'), ('service'), ('owner');

create table social.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null,
  display_name text not null default '',
  bio text not null default '',
  avatar_path text,
  -- PowderMeet
  skill_level text,
  equipment text,
  current_resort_id text,
  -- discovery by contact book: off until the person allows it
  discoverable_by_email boolean not null default false,
  discoverable_by_phone boolean not null default false,
  -- AirStrive
  onboarded_at timestamptz,
  sharing_suspended_at timestamptz,
  sharing_suspended_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  server_updated_at timestamptz not null default clock_timestamp(),
  constraint profiles_username_format check (
    username ~ '^[a-z][a-z0-9_]{2,19}$' and username !~ '__' and username !~ '_$'),
  constraint profiles_display_name_length check (char_length(display_name) <= 50
    and display_name !~ '[\r\n]'),
  constraint profiles_bio_length check (char_length(bio) <= 160 and bio !~ '[\r\n]'),
  constraint profiles_avatar_path_own check (
    avatar_path is null or avatar_path like id::text || '/%'),
  constraint profiles_skill_level check (
    skill_level is null or skill_level in ('beginner', 'intermediate', 'advanced', 'expert')),
  constraint profiles_equipment check (
    equipment is null or equipment in ('ski', 'snowboard', 'telemark', 'splitboard', 'sit_ski')),
  constraint profiles_current_resort_length check (
    current_resort_id is null or char_length(current_resort_id) between 1 and 100),
  constraint profiles_suspension_pair check (
    sharing_suspended_until is null or sharing_suspended_at is not null)
);
create unique index profiles_username_key on social.profiles (username);
create index profiles_username_prefix on social.profiles (username text_pattern_ops);
create index profiles_server_updated on social.profiles (server_updated_at, id);

-- One row per mutual pair, smaller id first.
create table social.friendships (
  user_a uuid not null references social.profiles (id) on delete cascade,
  user_b uuid not null references social.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_a, user_b),
  check (user_a < user_b)
);
create index friendships_user_b on social.friendships (user_b, user_a);

create table social.friend_requests (
  id uuid primary key default gen_random_uuid(),
  from_id uuid not null references social.profiles (id) on delete cascade,
  to_id uuid not null references social.profiles (id) on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'accepted', 'declined', 'cancelled')),
  -- sent to someone who had blocked the sender: the sender sees it as sent,
  -- the recipient never sees it
  suppressed boolean not null default false,
  created_at timestamptz not null default now(),
  responded_at timestamptz,
  check (from_id <> to_id)
);
create unique index friend_requests_one_pending on social.friend_requests (from_id, to_id)
  where status = 'pending';
create index friend_requests_to on social.friend_requests (to_id, status);
create index friend_requests_from_created on social.friend_requests (from_id, created_at);

create table social.blocks (
  blocker_id uuid not null references social.profiles (id) on delete cascade,
  blocked_id uuid not null references social.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  check (blocker_id <> blocked_id)
);
create index blocks_blocked on social.blocks (blocked_id, blocker_id);

create table social.friend_codes (
  code text primary key check (code ~ '^[0-9A-HJKMNP-TV-Z]{10}$'),
  owner_id uuid not null references social.profiles (id) on delete cascade,
  kind text not null check (kind in ('qr', 'link')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  redeemed_by uuid references social.profiles (id) on delete set null,
  redeemed_at timestamptz,
  revoked_at timestamptz
);
create index friend_codes_owner on social.friend_codes (owner_id, created_at);

-- The relay's generation number: bumped whenever a person's friends,
-- requests or blocks change, returned by get_social_snapshot.
create table social.social_generations (
  user_id uuid primary key references social.profiles (id) on delete cascade,
  generation bigint not null default 1
);

-- Moderation (shared: reports on AirStrive grids and moments, and on people).
-- grid_id / moment_id get their foreign keys in the grids migration.
create table social.admins (
  user_id uuid primary key references social.profiles (id) on delete cascade,
  created_at timestamptz not null default now()
);

create table social.reports (
  id uuid primary key default gen_random_uuid(),
  reporter_id uuid references social.profiles (id) on delete set null,
  target_type text not null check (target_type in ('grid', 'moment', 'user')),
  grid_id uuid,
  moment_id uuid,
  target_user_id uuid references social.profiles (id) on delete set null,
  -- the target's id as reported; kept when the target row goes away
  target_id uuid not null,
  reason text not null check (reason in
    ('spam', 'offensive', 'harassment', 'sexual', 'violence', 'self_harm', 'privacy', 'other')),
  details text not null default '' check (char_length(details) <= 500),
  snapshot jsonb not null,
  status text not null default 'open' check (status in ('open', 'actioned', 'dismissed')),
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  resolved_by uuid references social.profiles (id) on delete set null
);
create unique index reports_one_open on social.reports (reporter_id, target_type, target_id)
  where status = 'open';
create index reports_status_created on social.reports (status, created_at desc);
create index reports_reporter_created on social.reports (reporter_id, created_at);
create index reports_target_user on social.reports (target_user_id);
create index reports_grid on social.reports (grid_id);
create index reports_moment on social.reports (moment_id);

create table social.moderation_actions (
  id uuid primary key default gen_random_uuid(),
  admin_id uuid references social.profiles (id) on delete set null,
  action text not null check (action in ('hide_grid', 'unhide_grid', 'hide_moment', 'unhide_moment',
    'suspend_sharing', 'lift_suspension', 'dismiss_report')),
  subject_user_id uuid references social.profiles (id) on delete set null,
  grid_id uuid,
  moment_id uuid,
  report_id uuid references social.reports (id) on delete set null,
  note text not null default '' check (char_length(note) <= 1000),
  created_at timestamptz not null default now(),
  reversed_at timestamptz
);
create index moderation_actions_subject on social.moderation_actions (subject_user_id, created_at);
create index moderation_actions_grid on social.moderation_actions (grid_id);
create index moderation_actions_moment on social.moderation_actions (moment_id);
create index moderation_actions_report on social.moderation_actions (report_id);

-- Row level security everywhere; authenticated reads only its own profile
-- row directly, everything else goes through RPCs.
alter table social.reserved_usernames enable row level security;
alter table social.profiles enable row level security;
alter table social.friendships enable row level security;
alter table social.friend_requests enable row level security;
alter table social.blocks enable row level security;
alter table social.friend_codes enable row level security;
alter table social.social_generations enable row level security;
alter table social.admins enable row level security;
alter table social.reports enable row level security;
alter table social.moderation_actions enable row level security;

revoke all on all tables in schema social from anon, authenticated;
grant select on social.reserved_usernames to anon, authenticated;
-- Own rows only (policies): the own profile, the own friendships (the relay's
-- friends:{id} stream re-reads them), the blocks one made, one's own codes.
grant select on social.profiles, social.friendships, social.blocks, social.friend_codes
  to authenticated;
-- Direct updates reach only these columns; username and suspension move
-- only through RPCs.
grant update (display_name, bio, avatar_path, skill_level, equipment, current_resort_id,
  discoverable_by_email, discoverable_by_phone, onboarded_at, updated_at)
  on social.profiles to authenticated;
grant all on all tables in schema social to service_role;
