-- Derived square state (R2): done if a freebie or a live moment, revealed if
-- revealed_at is set, else hidden. Security invoker: RLS of the caller applies.
create or replace view grids.user_square_states with (security_invoker = true) as
  select s.id, s.user_grid_id, s.position,
         case when s.freebie_at is not null
                or exists (select 1 from grids.moments m where m.user_square_id = s.id and not m.deleted) then 'done'
              when s.revealed_at is not null then 'revealed'
              else 'hidden' end as state,
         s.freebie_at is not null as freebie
  from grids.user_squares s
  where not s.deleted;
revoke all on grids.user_square_states from anon;
grant select on grids.user_square_states to authenticated, service_role;

-- Invariants of a board (§3.3); empty after a full push in protocol order.
create or replace function private.board_violations(p_user_grid_id uuid)
returns table (code text, square smallint)
  language sql stable security definer
  set search_path = ''
  as $$
    with ug as (select u.*, g.size as n, z.freebies from grids.user_grids u
                join grids.grids g on g.id = u.grid_id join grids.grid_sizes z on z.side = g.size
                where u.id = p_user_grid_id),
    sq as (select s.* from grids.user_squares s where s.user_grid_id = p_user_grid_id and not s.deleted),
    live as (select m.user_square_id, count(*) as c from grids.moments m
             where m.user_grid_id = p_user_grid_id and not m.deleted group by m.user_square_id),
    ever as (select distinct m.user_square_id from grids.moments m
             where m.user_grid_id = p_user_grid_id
               and not (m.deleted and m.merged_into is not null))
    select 'missing_square', p::smallint from ug, generate_series(0, ug.n * ug.n - 1) p
      where not exists (select 1 from sq where sq.position = p)
    union all
    select 'extra_square', sq.position from sq, ug where sq.position >= ug.n * ug.n
    union all
    select 'centre_not_revealed', sq.position from sq, ug
      where sq.position = any (private.grid_centre(ug.n)) and sq.revealed_at is null
    union all
    select 'freebie_on_unrevealed', sq.position from sq where sq.freebie_at is not null and sq.revealed_at is null
    union all
    select 'freebies_over_allowance', null::smallint from ug
      where (select count(*) from sq where sq.freebie_at is not null) > ug.freebies
    union all
    select 'two_live_moments', sq.position from sq join live on live.user_square_id = sq.id where live.c > 1
    union all
    select 'moment_on_unrevealed', sq.position from sq join live on live.user_square_id = sq.id
      where sq.revealed_at is null
    union all
    select 'E1_orphan_reveal', sq.position from sq, ug
      where sq.revealed_at is not null and not (sq.position = any (private.grid_centre(ug.n)))
        and not exists (select 1 from sq o
                        where o.position = any (private.grid_neighbours(ug.n, sq.position))
                          and (o.freebie_at is not null or o.id in (select user_square_id from ever)))
    order by 1, 2
  $$;
revoke all on function private.board_violations(uuid) from public;
