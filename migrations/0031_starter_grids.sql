-- The six starter grids (spec §9.1): 2 x 7x7, 8x8, 2 x 9x9 and 10x10 = 424
-- squares, each one a prompt of the bank flagged with the grid's starter_key.
-- Ids are UUIDv5 of grid:starter:{key} so every install and every phone
-- agrees on them. The easiest prompts take the first positions of the reveal
-- order (centre outwards), so a new board opens with something doable today.
--
-- Self-contained on purpose: migrations run before sql/, so the reveal order
-- and the search document are computed here the way private.reveal_order()
-- and private.grid_search_doc() compute them.

insert into grids.grids (id, kind, starter_key, title, description, color, theme, size, season_months,
                         created_at, updated_at)
select public.uuid_generate_v5('00172f0c-6407-5cfe-8061-aae8a5f122ba'::uuid, 'grid:starter:' || s.key),
       'starter', s.key, s.title, s.description, s.color, s.theme, s.size, s.months,
       '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'
from (values
  ('small-joys', 'Small joys', 'Little things that make an ordinary day better.',
   'lemon', 'everyday', 7, null::smallint[]),
  ('close-to-home', 'Close to home', 'The streets, shops and green corners within an easy walk of your door.',
   'sage', 'nearby', 7, null),
  ('out-the-door', 'Out the door', 'Trees, sky, water and the paths you have not taken yet.',
   'teal', 'outdoors', 8, null),
  ('kitchen-table', 'Kitchen table', 'Cook, bake, taste and share, from a quick snack to a dinner for friends.',
   'coral', 'food', 9, null),
  ('through-the-year', 'Through the year', 'Something for every season, from the first blossom to the longest night.',
   'amber', 'seasons', 9, array[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
  ('hundred-firsts', 'A hundred firsts', 'A hundred small things to do for the very first time.',
   'indigo', 'new-things', 10, null)
) as s(key, title, description, color, theme, size, months);

do $$
declare
  v_key text;
begin
  select g.starter_key into v_key from grids.grids g
  where g.kind = 'starter'
    and (select count(*) from grids.prompts p where p.starter_key = g.starter_key) <> g.size * g.size;
  if found then
    raise exception 'starter grid % does not have exactly size² prompts in the bank', v_key;
  end if;
end
$$;

-- k-th easiest prompt (effort, then id) on the k-th position of the reveal
-- order: (distance to the centre block, row, column).
insert into grids.grid_squares (grid_id, position, prompt)
select g.id, o.position, p.text
from grids.grids g
cross join lateral (
  select p.text, row_number() over (order by p.effort, p.id) as k
  from grids.prompts p where p.starter_key = g.starter_key) p
join lateral (
  select x.position, row_number() over (
           order by greatest(0, (g.size - 1) / 2 - x.r, x.r - g.size / 2)
                    + greatest(0, (g.size - 1) / 2 - x.c, x.c - g.size / 2), x.r, x.c) as k
  from (select q::smallint as position, q / g.size as r, q % g.size as c
        from generate_series(0, g.size * g.size - 1) q) x) o on o.k = p.k
where g.kind = 'starter';

update grids.grids g set search_doc =
    setweight(to_tsvector('simple', g.title), 'A')
 || setweight(to_tsvector('simple', g.description), 'B')
 || setweight(to_tsvector('simple', (select string_agg(s.prompt, ' ' order by s.position)
                                     from grids.grid_squares s where s.grid_id = g.id)), 'C')
where g.kind = 'starter';
