-- Starter content (spec §9): the prompt bank and its authoring rules, the six
-- starter grids, and suggest_the_rest().
begin;
select plan(39);

-- ------------------------------------------------------------ the bank

select is((select count(*)::int from grids.prompts where status = 'approved'), 1500, 'the bank holds 1,500 approved prompts');
select is((select string_agg(theme || '=' || n, ' ' order by theme) from (
             select t.slug as theme, count(p.id) as n from grids.themes t left join grids.prompts p on p.theme = t.slug
             group by t.slug) x),
  'calm=125 culture=125 everyday=125 food=125 learning=125 making=125 movement=125 nearby=125 new-things=125 outdoors=125 people=125 seasons=125',
  'twelve themes of 125 prompts each');
select is((select count(*)::int from grids.prompts where starter_key is not null), 424, 'the bank holds the 424 starter prompts');
select is((select count(*)::int from (select private.normalize_prompt(text) from grids.prompts group by 1 having count(*) > 1) d), 0,
  'no two prompts are equal after normalising case, punctuation and spaces');
set local pg_trgm.similarity_threshold = 0.6;
select is((select count(*)::int from grids.prompts a join grids.prompts b
           on a.id < b.id and a.text operator(public.%) b.text), 0,
  'no two prompts are 0.6 or more trigram-similar');

-- authoring rules (§9.3 step 2)
select is((select string_agg(text, ' | ') from grids.prompts where char_length(text) not between 3 and 60), null, 'every prompt is 3 to 60 characters');
select is((select string_agg(text, ' | ') from grids.prompts
           where text !~ '^[A-Z]' or substr(text, 2) ~ '[A-Z]'), null,
  'sentence case, and no capital after the first letter (so no names of places, people or brands)');
select is((select string_agg(text, ' | ') from grids.prompts where text ~ '[.!?]$'), null, 'no trailing full stop');
select is((select string_agg(text, ' | ') from grids.prompts where text ~ '[0-9$£€%]' or text ~ '[^ -~]'), null,
  'plain ASCII words only: no digits, prices or emoji');
select is((select string_agg(text, ' | ') from grids.prompts
           where text ~* '\m(wine|beer|ale|lager|cocktails?|spirits|vodka|whisky|gin|rum|champagne|prosecco|cider|pubs?|brewery|drunk|hangover|alcohol|weed|cannabis|drugs?|cigarettes?|vape|smoking|casino|bets?|betting|gamble|gambling|lottery|poker|slots|dares?|stunts?|cliffs?)\M'), null,
  'no alcohol, drugs, gambling or risky stunts');
select is((select string_agg(distinct w, ', ') from (
             select regexp_replace(split_part(text, ' ', 1), '[^A-Za-z-]', '', 'g') as w from grids.prompts) x
           where w not in ('Add', 'Answer', 'Arrange', 'Ask', 'Attend', 'Babysit', 'Bake', 'Balance', 'Bind', 'Blow',
             'Borrow', 'Breathe', 'Brew', 'Bring', 'Browse', 'Brush', 'Build', 'Butter', 'Buy', 'Call', 'Camp', 'Carve',
             'Catch', 'Change', 'Choose', 'Clean', 'Clear', 'Climb', 'Close', 'Collect', 'Colour', 'Compare', 'Compliment',
             'Cook', 'Count', 'Create', 'Cycle', 'Dance', 'Declutter', 'Decorate', 'Design', 'Dip', 'Discover', 'Do',
             'Draw', 'Drink', 'Eat', 'Embroider', 'Empty', 'Enter', 'Explore', 'Feed', 'Feel', 'Fill', 'Find', 'Finish',
             'Fix', 'Flip', 'Float', 'Fly', 'Fold', 'Follow', 'Frame', 'Gather', 'Get', 'Give', 'Go', 'Grow',
             'Hand-letter', 'Hang', 'Have', 'Hear', 'Help', 'Hike', 'Hold', 'Hop', 'Host', 'Hug', 'Hum', 'Identify',
             'Interview', 'Introduce', 'Invite', 'Iron', 'Join', 'Jump', 'Keep', 'Kick', 'Knit', 'Learn', 'Leave', 'Let',
             'Lie', 'Light', 'Line', 'Listen', 'Look', 'Make', 'Map', 'March', 'Mark', 'Massage', 'Master', 'Measure',
             'Meet', 'Memorise', 'Mend', 'Move', 'Name', 'Notice', 'Offer', 'Open', 'Order', 'Organise', 'Pack', 'Paint',
             'Pass', 'Photograph', 'Pick', 'Plan', 'Plant', 'Plate', 'Play', 'Poach', 'Polish', 'Practise', 'Praise',
             'Press', 'Print', 'Put', 'Race', 'Reach', 'Read', 'Rearrange', 'Recite', 'Recognise', 'Recommend',
             'Reconnect', 'Record', 'Relax', 'Rent', 'Reorganise', 'Reread', 'Research', 'Restart', 'Restore', 'Roast',
             'Roll', 'Run', 'Savour', 'Say', 'See', 'Send', 'Set', 'Sew', 'Shake', 'Share', 'Sharpen', 'Sing', 'Sink',
             'Sip', 'Sit', 'Skate', 'Sketch', 'Skim', 'Skip', 'Sleep', 'Smell', 'Smile', 'Soak', 'Solve', 'Sort', 'Spend',
             'Spin', 'Spot', 'Sprinkle', 'Sprout', 'Squeeze', 'Stand', 'Start', 'Stay', 'Step', 'Stitch', 'Stretch',
             'Study', 'Stump', 'Surprise', 'Swap', 'Swim', 'Swing', 'Take', 'Talk', 'Taste', 'Teach', 'Tell', 'Text',
             'Thank', 'Throw', 'Tidy', 'Toast', 'Touch', 'Trace', 'Track', 'Treat', 'Try', 'Turn', 'Use', 'Visit',
             'Volunteer', 'Wake', 'Walk', 'Warm', 'Watch', 'Water', 'Wear', 'Weave', 'Whisk', 'Wiggle', 'Work', 'Wrap',
             'Write')), null,
  'every prompt starts with a verb (from the reviewed list)');
select is((select string_agg(text, ' | ') from grids.prompts
           where text ~* '\m(january|february|march|april|may|june|july|august|september|october|november|december)\M'
             and split_part(text, ' ', 1) <> 'March'), null,
  'no prompt names a month, so every one works in both hemispheres');
select is((select count(*)::int from grids.prompts where text ~* '\m(spring|summer|autumn|winter)' and months is null), 0,
  'a prompt that names a season carries that season''s months');

-- reference data: readable by apps, retired prompts hidden
select tests.act_as(tests.create_user('reader@example.test', null, '{"username":"reader"}'));
select is((select count(*)::int from grids.prompts), 1500, 'signed-in people read the bank');
select tests.act_as_anon();
select is((select count(*)::int from grids.prompts where theme = 'calm'), 125, 'anon reads it too (reference data)');
select tests.clear_authentication();

-- ------------------------------------------------------------ starter grids

select is((select string_agg(starter_key || ':' || size || ':' || theme, ' ' order by starter_key) from grids.grids where kind = 'starter'),
  'close-to-home:7:nearby hundred-firsts:10:new-things kitchen-table:9:food out-the-door:8:outdoors small-joys:7:everyday through-the-year:9:seasons',
  'six starter grids with the spec''s keys, sizes and themes');
select is((select count(*)::int from grids.grids g where g.kind = 'starter'
           and g.id = private.v5('grid:starter:' || g.starter_key) and g.owner_id is null and not g.shared), 6,
  'starter ids are v5 grid:starter:{key}; no owner, not "shared" (in the Atlas by kind)');
select is((select sum(n)::int from (select count(*) as n from grids.grid_squares s join grids.grids g on g.id = s.grid_id
           where g.kind = 'starter' group by g.id, g.size having count(*) = g.size * g.size) x), 424,
  'each starter grid has exactly size² squares, 424 in all');
select is((select count(*)::int from grids.grids g join grids.grid_squares s on s.grid_id = g.id
           left join grids.prompts p on p.starter_key = g.starter_key and p.text = s.prompt
           where g.kind = 'starter' and p.id is null), 0,
  'every starter square is one of its grid''s bank prompts');
select is((select count(*)::int from (
             select p.effort, max(p.effort) over (partition by g.id order by r.k rows between unbounded preceding and 1 preceding) as before
             from grids.grids g
             join grids.grid_squares s on s.grid_id = g.id
             join grids.prompts p on p.starter_key = g.starter_key and p.text = s.prompt
             join unnest(private.reveal_order(g.size)) with ordinality r(pos, k) on r.pos = s.position
             where g.kind = 'starter') x where effort < before), 0,
  'the easiest prompts take the first positions of the reveal order');
select is((select count(*)::int from grids.grids g where g.kind = 'starter'
           and g.search_doc <> private.grid_search_doc(g.title, g.description,
                 (select array_agg(prompt order by position) from grids.grid_squares where grid_id = g.id))), 0,
  'starter search documents are what save_grid would compute');

select tests.create_user('sam@example.test', null, '{"username":"sam"}') as sam \gset
select tests.act_as(:'sam');
select is((grids.atlas_search('small joys') -> 0 ->> 'grid_id')::uuid, private.v5('grid:starter:small-joys'),
  'a starter grid is found in the Atlas');
select ok(grids.atlas_this_season(7::smallint)::text like '%Through the year%', 'through-the-year is in season all year');
select is(grids.atlas_rows(array['cooking']) -> 0 -> 'grids' -> 0 ->> 'title', 'Kitchen table',
  'atlas_rows puts the starter first in its theme''s row');
insert into grids.user_grids (id, grid_id, created_at, updated_at)
values (private.v5('user_grid:' || :'sam' || ':small-joys'), private.v5('grid:starter:small-joys'), now(), now());
select is((select count(*)::int || '/' || count(*) filter (where revealed_at is not null)::int from grids.user_squares),
  '49/1', 'adding a starter grid to the shelf gives 49 squares with the centre revealed');
select is((select prompt from grids.grid_squares where grid_id = private.v5('grid:starter:small-joys') and position = 24),
  (select text from grids.prompts where starter_key = 'small-joys' order by effort, id limit 1),
  'the centre square holds the easiest prompt');

-- ------------------------------------------------------------ suggest_the_rest

-- every call as sam; the checks afterwards read private helpers as the test's own role
create temp table made (label text, result jsonb);
grant all on made to authenticated;
insert into made values
  ('a', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000001', 'calm', 7::smallint)),
  ('a again', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000001', 'calm', 7::smallint)),
  ('b', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000002', 'calm', 7::smallint)),
  ('ten', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000003', 'learning', 10::smallint));
select (result -> 'squares' ->> 24) as first_pick from made where label = 'a' \gset
-- the person's own squares: the first pick shouted, and something near "Go to the moon"
insert into made select 'written', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000001', 'calm', 7::smallint,
  (select array_agg(case i when 0 then upper(:'first_pick') || '!' when 48 then 'Go to the moon' end order by i)
   from generate_series(0, 48) i));
-- re-roll: empty a square and exclude what it said
insert into made select 'rerolled', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000001', 'calm', 7::smallint,
  (select array_agg(case when k = 25 then null else x end order by k)
   from jsonb_array_elements_text((select result -> 'squares' from made where label = 'a')) with ordinality s(x, k)),
  array[:'first_pick']);
-- the whole calm theme excluded
insert into made select 'related', grids.suggest_the_rest('a0000000-0000-4000-8000-000000000004', 'calm', 7::smallint,
  '{}', (select array_agg(text) from grids.prompts where theme = 'calm'));
select tests.clear_authentication();

select is((select result from made where label = 'a'), (select result from made where label = 'a again'),
  'the same grid gets the same suggestions (deterministic)');
select isnt((select result -> 'squares' from made where label = 'a'), (select result -> 'squares' from made where label = 'b'),
  'another grid id shuffles differently');
select is((select count(distinct x)::int || '/' || count(*) filter (where p.theme = 'learning')::int
           from made, jsonb_array_elements_text(result -> 'squares') x join grids.prompts p on p.text = x where label = 'ten'),
  '100/100', 'a 10 x 10 board is filled with 100 different prompts of its own theme');
create temp view laid_out as
  select m.label, r.k, p.effort
  from made m cross join jsonb_array_elements(m.result -> 'suggested') s
  join grids.prompts p on p.id = (s ->> 'prompt_id')::int
  join unnest(private.reveal_order(7)) with ordinality r(pos, k) on r.pos = (s ->> 'position')::int;
select is((select count(*)::int from laid_out a join laid_out b on a.label = b.label
           where a.label = 'a' and a.k < b.k and a.effort > b.effort), 0,
  'suggestions are laid out easiest first in reveal order');

select is((select (result -> 'squares' ->> 0) || ' / ' || (result -> 'squares' ->> 48) from made where label = 'written'),
  upper(:'first_pick') || '! / Go to the moon', 'written squares stay at their positions');
select is((select count(*)::int from made, jsonb_array_elements(result -> 'suggested') s where label = 'written'), 47,
  'every empty square is filled');
select ok((select not (result -> 'squares' ? :'first_pick') from made where label = 'written'),
  'a bank prompt equal to a written square (ignoring case and punctuation) is not suggested again');
select ok((select not exists (select 1 from jsonb_array_elements_text(result -> 'squares') x
                               where x <> 'Go to the moon' and public.similarity(x, 'Go to the moon') >= 0.6)
           from made where label = 'written'),
  'nor is one 0.6 or more similar to a written square');

select is((select count(*)::int from jsonb_array_elements_text((select result -> 'squares' from made where label = 'rerolled'))
             with ordinality s(x, k)
           where x is distinct from (select result -> 'squares' ->> (k - 1)::int from made where label = 'a')), 1,
  're-rolling a square changes that square only');
select isnt((select result -> 'squares' ->> 24 from made where label = 'rerolled'), :'first_pick', '... to another prompt');

select is((select count(*)::int from made, jsonb_array_elements(result -> 'suggested') s
           join grids.prompts p on p.id = (s ->> 'prompt_id')::int
           where label = 'related' and p.theme = any (private.related_themes('calm'))), 49,
  'with its own theme used up, a grid is filled from themes that share an interest with it');

select tests.act_as(:'sam');
select throws_ok($$select grids.suggest_the_rest(gen_random_uuid(), 'calm', 5::smallint)$$, 'P0001', 'size_invalid', 'an unknown size is refused');
select throws_ok($$select grids.suggest_the_rest(gen_random_uuid(), 'nope', 7::smallint)$$, 'P0001', 'theme_invalid', 'an unknown theme is refused');

select * from finish();
rollback;
