-- "Suggest the rest" (spec §9.2): fill the empty squares of a grid someone is
-- making from the prompt bank, deterministically — no model, no network, the
-- same answer for the same grid every time, so the phone and the server agree.

-- Two prompts are "the same" when equal ignoring case, punctuation and spaces
-- (the same expression as the bank's unique index).
create or replace function private.normalize_prompt(p_text text) returns text
  language sql immutable
  set search_path = ''
  as $$ select lower(regexp_replace(coalesce(p_text, ''), '[^[:alnum:]]+', '', 'g')) $$;

-- Themes that share an interest with p_theme (grids.interest_themes): the
-- second place suggestions come from once the grid's own theme runs out.
create or replace function private.related_themes(p_theme text) returns text[]
  language sql stable
  set search_path = ''
  as $$
    select coalesce(array_agg(distinct b.theme order by b.theme), '{}')
    from grids.interest_themes a join grids.interest_themes b on b.interest = a.interest
    where a.theme = p_theme and b.theme <> p_theme
  $$;

-- p_squares: the board in position order (size² entries at most; null or blank
-- = empty). Written squares stay where they are; each empty square, taken in
-- reveal order, gets a bank prompt: the grid's theme first, then related
-- themes, then any theme. A prompt equal (normalised) or at least 0.6
-- trigram-similar to a written square or to one in p_exclude is skipped; the
-- bank itself holds no such pairs. The order within each tier is a shuffle
-- seeded by the grid id; the chosen prompts are laid out easiest first.
--
-- Re-rolling a square: empty it and pass the prompt it had in p_exclude.
create or replace function grids.suggest_the_rest(p_grid_id uuid, p_theme text, p_size smallint,
  p_squares text[] default '{}', p_exclude text[] default '{}') returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_n int := p_size;
  v_board text[];
  v_taken text[];
  v_empty smallint[];
  v_related text[];
  v_blocked int[];
begin
  if p_grid_id is null then
    perform private.fail('grid_invalid', 'Pass the id of the grid being made: it seeds the suggestions.');
  end if;
  if p_size is null or not exists (select 1 from grids.grid_sizes where side = p_size) then
    perform private.fail('size_invalid', 'Use a board side from grids.grid_sizes (7, 8, 9 or 10).');
  end if;
  if p_theme is null or not exists (select 1 from grids.themes where slug = p_theme and active) then
    perform private.fail('theme_invalid', 'Use one of the Atlas themes (grids.themes).');
  end if;
  if coalesce(cardinality(p_squares), 0) > v_n * v_n then
    perform private.fail('squares_count', format('A %s x %s grid has %s squares.', v_n, v_n, v_n * v_n));
  end if;
  if coalesce(cardinality(p_exclude), 0) > 1000 then
    perform private.fail('too_many', 'Exclude at most 1000 prompts.');
  end if;

  select array_agg(nullif(btrim((coalesce(p_squares, '{}'))[i + 1]), '') order by i) into v_board
  from generate_series(0, v_n * v_n - 1) i;
  select coalesce(array_agg(x), '{}') into v_taken
  from unnest(v_board || coalesce(p_exclude, '{}')) x where nullif(btrim(x), '') is not null;
  select coalesce(array_agg(p order by k), '{}') into v_empty
  from unnest(private.reveal_order(v_n)) with ordinality r(p, k) where v_board[p + 1] is null;
  v_related := private.related_themes(p_theme);
  -- what is already on the board (or excluded) rules out its equals and near
  -- equals; the trigram index finds them without comparing every pair
  select coalesce(array_agg(distinct b.id), '{}') into v_blocked
  from grids.prompts b
  where private.normalize_prompt(b.text) = any (select private.normalize_prompt(t) from unnest(v_taken) t)
     or exists (select 1 from unnest(v_taken) t
                where b.text operator(public.%) t and public.similarity(b.text, t) >= 0.6);

  return (
    with candidates as (
      select b.id, b.text, b.effort,
             case when b.theme = p_theme then 0 when b.theme = any (v_related) then 1 else 2 end as tier,
             md5(p_grid_id::text || ':' || b.id::text) as shuffle
      from grids.prompts b
      where b.status = 'approved' and b.id <> all (v_blocked)
    ),
    chosen as (
      select c.*, row_number() over (order by c.effort, c.tier, c.shuffle) as k
      from (select * from candidates order by tier, shuffle limit cardinality(v_empty)) c
    ),
    placed as (
      select e.p as position, c.id, c.text
      from unnest(v_empty) with ordinality e(p, k) join chosen c on c.k = e.k
    )
    select jsonb_build_object(
      'squares', (select jsonb_agg(coalesce(v_board[i + 1], (select text from placed where position = i)) order by i)
                  from generate_series(0, v_n * v_n - 1) i),
      'suggested', coalesce((select jsonb_agg(jsonb_build_object('position', position, 'prompt_id', id, 'prompt', text)
                                              order by position) from placed), '[]'::jsonb),
      'reveal_order', to_jsonb(private.reveal_order(v_n))));
end
$$;

revoke all on function private.normalize_prompt(text), private.related_themes(text) from public;
revoke all on function grids.suggest_the_rest(uuid, text, smallint, text[], text[]) from public, anon;
grant execute on function grids.suggest_the_rest(uuid, text, smallint, text[], text[]) to authenticated, service_role;
