-- AirStrive: grids (templates) and their squares, shelves (user_grids), square
-- state, moments, group entries, photos, groups, interests, sync bookkeeping.
--
-- Tables, indexes, RLS switched on and column grants. The rules (triggers,
-- can_view(), RPCs, policies) are repeatable definitions in sql/0020..0049.

create schema if not exists grids;
grant usage on schema grids to anon, authenticated, service_role;

-- narrow -> wide, so least() gives the narrower
create type grids.audience as enum ('private', 'friends', 'public');
create type grids.part_audience as enum ('private', 'group');

-- ------------------------------------------------------------ reference data

create table grids.grid_sizes (
  side smallint primary key check (side between 3 and 12),
  freebies smallint not null check (freebies >= 0)
);
insert into grids.grid_sizes (side, freebies) values (7, 1), (8, 2), (9, 4), (10, 6);

create table grids.themes (
  slug text primary key check (slug ~ '^[a-z][a-z0-9-]{1,29}$'),
  label text not null,
  sort smallint not null default 0,
  active boolean not null default true
);
insert into grids.themes (slug, label, sort) values
  ('everyday', 'Everyday', 1), ('outdoors', 'Outdoors', 2), ('food', 'Food', 3),
  ('making', 'Making', 4), ('movement', 'Movement', 5), ('culture', 'Culture', 6),
  ('people', 'People', 7), ('nearby', 'Nearby', 8), ('seasons', 'Seasons', 9),
  ('calm', 'Calm', 10), ('learning', 'Learning', 11), ('new-things', 'New things', 12);

create table grids.interests (
  slug text primary key check (slug ~ '^[a-z][a-z0-9-]{1,29}$'),
  label text not null,
  sort smallint not null default 0
);
insert into grids.interests (slug, label, sort) values
  ('cooking', 'Cooking', 1), ('nature', 'Nature', 2), ('art', 'Art', 3), ('music', 'Music', 4),
  ('reading', 'Reading', 5), ('fitness', 'Fitness', 6), ('family', 'Family', 7),
  ('photography', 'Photography', 8), ('gardening', 'Gardening', 9), ('city-life', 'City life', 10),
  ('mindfulness', 'Mindfulness', 11), ('travel', 'Travel', 12), ('crafts', 'Crafts', 13),
  ('friends', 'Time with friends', 14), ('learning', 'Learning new things', 15),
  ('seasons', 'The seasons', 16);

create table grids.interest_themes (
  interest text not null references grids.interests (slug) on delete cascade,
  theme text not null references grids.themes (slug) on delete cascade,
  primary key (interest, theme)
);
create index interest_themes_theme on grids.interest_themes (theme);
insert into grids.interest_themes (interest, theme) values
  ('cooking', 'food'), ('cooking', 'making'),
  ('nature', 'outdoors'), ('nature', 'seasons'),
  ('art', 'culture'), ('art', 'making'),
  ('music', 'culture'), ('music', 'calm'),
  ('reading', 'learning'), ('reading', 'calm'),
  ('fitness', 'movement'), ('fitness', 'outdoors'),
  ('family', 'people'), ('family', 'everyday'),
  ('photography', 'nearby'), ('photography', 'outdoors'),
  ('gardening', 'outdoors'), ('gardening', 'seasons'), ('gardening', 'making'),
  ('city-life', 'nearby'), ('city-life', 'culture'),
  ('mindfulness', 'calm'), ('mindfulness', 'everyday'),
  ('travel', 'new-things'), ('travel', 'nearby'),
  ('crafts', 'making'),
  ('friends', 'people'), ('friends', 'new-things'),
  ('learning', 'learning'), ('learning', 'new-things'),
  ('seasons', 'seasons'), ('seasons', 'outdoors');

-- ------------------------------------------------------------ templates

create table grids.grids (
  id uuid primary key,
  kind text not null check (kind in ('starter', 'curated', 'made')),
  owner_id uuid references social.profiles (id) on delete set null,
  starter_key text unique,
  source_grid_id uuid references grids.grids (id) on delete set null,
  title text not null check (char_length(title) between 1 and 40),
  description text not null default '' check (char_length(description) <= 200),
  color text not null check (color in
    ('coral', 'amber', 'lemon', 'sage', 'teal', 'sky', 'indigo', 'plum', 'rose', 'sand', 'slate', 'ink')),
  theme text not null references grids.themes (slug),
  size smallint not null references grids.grid_sizes (side),
  season_months smallint[] check (season_months is null or season_months <@ array[1,2,3,4,5,6,7,8,9,10,11,12]::smallint[]),
  shared boolean not null default false,
  shared_at timestamptz,
  hidden_at timestamptz,
  search_doc tsvector not null default ''::tsvector,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false,
  check (owner_id is not null or shared = false),
  check (kind = 'made' or owner_id is null)
);
create index grids_owner on grids.grids (owner_id);
create index grids_source on grids.grids (source_grid_id);
create index grids_server_updated on grids.grids (server_updated_at, id);
create index grids_search on grids.grids using gin (search_doc);
create index grids_title_trgm on grids.grids using gin (title gin_trgm_ops);
create index grids_atlas on grids.grids (theme, kind, shared_at desc) where not deleted and hidden_at is null;
create index grids_season on grids.grids using gin (season_months);

create table grids.grid_squares (
  grid_id uuid not null references grids.grids (id) on delete cascade,
  position smallint not null check (position >= 0),
  prompt text not null check (char_length(btrim(prompt)) between 1 and 80),
  primary key (grid_id, position)
);

-- ------------------------------------------------------------ shelves

create table grids.user_grids (
  id uuid primary key,
  user_id uuid references social.profiles (id) on delete set null,
  grid_id uuid not null references grids.grids (id),
  group_id uuid,
  audience grids.audience not null default 'private',
  converted_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false,
  check (group_id is null or group_id = id),
  check (group_id is not null or user_id is not null)
);
create index user_grids_user on grids.user_grids (user_id, server_updated_at);
create index user_grids_group on grids.user_grids (group_id) where group_id is not null;
create index user_grids_grid on grids.user_grids (grid_id);
create index user_grids_server_updated on grids.user_grids (server_updated_at, id);

create table grids.user_squares (
  id uuid primary key,
  user_grid_id uuid not null references grids.user_grids (id) on delete cascade,
  user_id uuid,
  group_id uuid,
  position smallint not null check (position >= 0),
  revealed_at timestamptz,
  freebie_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false,
  unique (user_grid_id, position)
);
create index user_squares_user on grids.user_squares (user_id, server_updated_at);
create index user_squares_group on grids.user_squares (group_id) where group_id is not null;
create index user_squares_server_updated on grids.user_squares (server_updated_at, id);

create table grids.moments (
  id uuid primary key,
  user_square_id uuid not null references grids.user_squares (id) on delete cascade,
  user_grid_id uuid not null references grids.user_grids (id) on delete cascade,
  user_id uuid references social.profiles (id) on delete set null,
  group_id uuid,
  title text not null default '' check (char_length(title) <= 80),
  body text not null default '' check (char_length(body) <= 10000),
  happened_on date not null,
  place text not null default '' check (char_length(place) <= 120),
  weather text not null default '' check (char_length(weather) <= 40),
  with_whom text not null default '' check (char_length(with_whom) <= 200),
  audience grids.audience not null default 'private',
  hidden_at timestamptz,
  merged_into uuid references grids.moments (id) on delete set null deferrable initially deferred,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false
);
create unique index moments_one_live_per_square on grids.moments (user_square_id) where not deleted;
create index moments_square on grids.moments (user_square_id);
create index moments_user on grids.moments (user_id, server_updated_at);
create index moments_user_grid on grids.moments (user_grid_id);
create index moments_group on grids.moments (group_id) where group_id is not null;
create index moments_merged_into on grids.moments (merged_into) where merged_into is not null;
create index moments_server_updated on grids.moments (server_updated_at, id);

create table grids.moment_entries (
  id uuid primary key,
  moment_id uuid not null references grids.moments (id) on delete cascade,
  author_id uuid references social.profiles (id) on delete set null,
  group_id uuid not null,
  body text not null default '' check (char_length(body) <= 10000),
  audience grids.part_audience not null default 'private',
  merged_into uuid references grids.moment_entries (id) on delete set null deferrable initially deferred,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false
);
create unique index moment_entries_one_live_per_author on grids.moment_entries (moment_id, author_id)
  where not deleted and author_id is not null;
create index moment_entries_moment on grids.moment_entries (moment_id);
create index moment_entries_author on grids.moment_entries (author_id);
create index moment_entries_group on grids.moment_entries (group_id, server_updated_at);
create index moment_entries_server_updated on grids.moment_entries (server_updated_at, id);

create table grids.photos (
  id uuid primary key,
  moment_id uuid not null references grids.moments (id) on delete cascade,
  user_id uuid references social.profiles (id) on delete set null,
  group_id uuid,
  storage_path text not null unique,
  audience grids.part_audience,
  sort smallint not null default 0,
  width int check (width is null or width between 1 and 20000),
  height int check (height is null or height between 1 and 20000),
  byte_size int check (byte_size is null or byte_size between 1 and 10485760),
  uploaded_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false,
  check ((group_id is null) = (audience is null))
);
create index photos_moment on grids.photos (moment_id);
create index photos_user on grids.photos (user_id, server_updated_at);
create index photos_group on grids.photos (group_id, server_updated_at) where group_id is not null;
create index photos_server_updated on grids.photos (server_updated_at, id);

create table grids.profile_interests (
  id uuid primary key,
  user_id uuid not null references social.profiles (id) on delete cascade,
  interest text not null references grids.interests (slug),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  device_id uuid not null default '00000000-0000-0000-0000-000000000000',
  server_updated_at timestamptz not null default clock_timestamp(),
  deleted boolean not null default false,
  unique (user_id, interest)
);
create index profile_interests_server_updated on grids.profile_interests (server_updated_at, id);

-- ------------------------------------------------------------ groups

create table grids.group_members (
  group_id uuid not null references grids.user_grids (id) on delete cascade,
  user_id uuid not null references social.profiles (id) on delete cascade,
  joined_at timestamptz not null default now(),
  primary key (group_id, user_id)
);
create index group_members_user on grids.group_members (user_id, group_id);

create table grids.group_invites (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references grids.user_grids (id) on delete cascade,
  inviter_id uuid references social.profiles (id) on delete set null,
  invitee_id uuid not null references social.profiles (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'cancelled')),
  suppressed boolean not null default false,
  created_at timestamptz not null default now(),
  responded_at timestamptz
);
create unique index group_invites_one_pending on grids.group_invites (group_id, invitee_id)
  where status = 'pending';
create index group_invites_invitee on grids.group_invites (invitee_id, status);
create index group_invites_inviter on grids.group_invites (inviter_id);

create table grids.group_unshares (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references grids.user_grids (id) on delete cascade,
  object_type text not null check (object_type in ('entry', 'photo')),
  object_id uuid not null,
  author_id uuid references social.profiles (id) on delete set null,
  -- null = every member but the author
  for_user_id uuid references social.profiles (id) on delete cascade,
  reason text not null default 'private' check (reason in ('private', 'hidden', 'blocked')),
  created_at timestamptz not null default now(),
  server_updated_at timestamptz not null default clock_timestamp()
);
create index group_unshares_group on grids.group_unshares (group_id, server_updated_at);
create index group_unshares_for_user on grids.group_unshares (for_user_id) where for_user_id is not null;
create index group_unshares_object on grids.group_unshares (object_id);
create index group_unshares_server_updated on grids.group_unshares (server_updated_at, id);

-- ------------------------------------------------------------ internal

create table private.moderation_snapshots (
  moment_id uuid primary key references grids.moments (id) on delete cascade,
  fields jsonb not null,
  created_at timestamptz not null default now()
);

create table private.storage_deletions (
  id bigint generated always as identity primary key,
  bucket text not null,
  name text not null,
  requested_at timestamptz not null default now(),
  done_at timestamptz
);
create index storage_deletions_pending on private.storage_deletions (requested_at) where done_at is null;

create table private.sync_corrections (
  id bigint generated always as identity primary key,
  table_name text not null,
  row_id uuid,
  user_id uuid,
  kind text not null,
  detail jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index sync_corrections_row on private.sync_corrections (row_id);

-- Reports and moderation actions point at grids and moments.
alter table social.reports
  add constraint reports_grid_fk foreign key (grid_id) references grids.grids (id) on delete set null,
  add constraint reports_moment_fk foreign key (moment_id) references grids.moments (id) on delete set null;
alter table social.moderation_actions
  add constraint moderation_actions_grid_fk foreign key (grid_id) references grids.grids (id) on delete set null,
  add constraint moderation_actions_moment_fk foreign key (moment_id) references grids.moments (id) on delete set null;

-- ------------------------------------------------------------ RLS and grants

alter table grids.grid_sizes enable row level security;
alter table grids.themes enable row level security;
alter table grids.interests enable row level security;
alter table grids.interest_themes enable row level security;
alter table grids.grids enable row level security;
alter table grids.grid_squares enable row level security;
alter table grids.user_grids enable row level security;
alter table grids.user_squares enable row level security;
alter table grids.moments enable row level security;
alter table grids.moment_entries enable row level security;
alter table grids.photos enable row level security;
alter table grids.profile_interests enable row level security;
alter table grids.group_members enable row level security;
alter table grids.group_invites enable row level security;
alter table grids.group_unshares enable row level security;
alter table private.moderation_snapshots enable row level security;
alter table private.storage_deletions enable row level security;
alter table private.sync_corrections enable row level security;

revoke all on all tables in schema grids from anon, authenticated;
revoke all on all tables in schema private from anon, authenticated;
grant all on all tables in schema grids to service_role;
grant all on all tables in schema private to service_role;

grant select on grids.grid_sizes, grids.themes, grids.interests, grids.interest_themes
  to anon, authenticated;
grant select on grids.grids, grids.grid_squares, grids.user_grids, grids.user_squares,
  grids.moments, grids.moment_entries, grids.photos, grids.profile_interests,
  grids.group_unshares to authenticated;

-- What a phone may write (sync_push runs as the caller). Server-owned
-- columns (C5) are not granted; no DELETE anywhere.
grant insert (id, grid_id, audience, deleted, created_at, updated_at, device_id),
      update (audience, deleted, created_at, updated_at, device_id)
  on grids.user_grids to authenticated;
grant insert (id, user_grid_id, position, revealed_at, freebie_at, created_at, updated_at, device_id),
      update (revealed_at, freebie_at, created_at, updated_at, device_id)
  on grids.user_squares to authenticated;
grant insert (id, user_square_id, title, body, happened_on, place, weather, with_whom, audience,
              deleted, created_at, updated_at, device_id),
      update (title, body, happened_on, place, weather, with_whom, audience,
              deleted, created_at, updated_at, device_id)
  on grids.moments to authenticated;
grant insert (id, moment_id, body, audience, deleted, created_at, updated_at, device_id),
      update (moment_id, body, audience, deleted, created_at, updated_at, device_id)
  on grids.moment_entries to authenticated;
grant insert (id, moment_id, audience, sort, width, height, byte_size, deleted,
              created_at, updated_at, device_id),
      update (moment_id, audience, sort, width, height, byte_size, deleted,
              created_at, updated_at, device_id)
  on grids.photos to authenticated;
grant insert (id, interest, deleted, created_at, updated_at, device_id),
      update (deleted, created_at, updated_at, device_id)
  on grids.profile_interests to authenticated;
