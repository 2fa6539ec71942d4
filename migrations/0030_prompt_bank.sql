-- The prompt bank: every prompt AirStrive suggests, written for this project
-- (spec §9). Twelve themes of about 125 prompts; the six starter grids
-- (0031) are made of the prompts flagged with their starter_key, and
-- grids.suggest_the_rest() fills the gaps of a grid someone is making.
--
-- Style (checked by pgtap/starter_content.sql): one small experience doable
-- in a day; 3 to 60 characters; starts with a verb; sentence case; no full
-- stop, digits, emoji, brands, places or people; nothing about alcohol,
-- drugs, gambling or risky stunts; most budgets, ages and abilities, no
-- special equipment.
--
-- Ids are stable and never reused: a prompt that should no longer be
-- suggested is set to status 'retired' by a later migration, never deleted.

create table grids.prompts (
  id int primary key,
  text text not null check (char_length(text) between 3 and 60),
  theme text not null references grids.themes (slug),
  -- indoor/outdoor, solo/together, free/low-cost; a missing pair means either
  tags text[] not null default '{}'
    check (tags <@ array['indoor', 'outdoor', 'solo', 'together', 'free', 'low-cost']),
  -- northern-hemisphere months the prompt fits; null = any time
  months smallint[] check (months is null or months <@ array[1,2,3,4,5,6,7,8,9,10,11,12]::smallint[]),
  effort smallint not null check (effort between 1 and 3),
  -- the starter grid it appears on
  starter_key text,
  status text not null default 'approved' check (status in ('draft', 'approved', 'retired')),
  created_at timestamptz not null default now()
);
-- Two prompts equal after normalising case, punctuation and spaces are one prompt.
create unique index prompts_normalized_text on grids.prompts (lower(regexp_replace(text, '[^[:alnum:]]+', '', 'g')));
create index prompts_theme on grids.prompts (theme) where status = 'approved';
-- Finding near-duplicates (trigram similarity) when prompts are added or suggested.
create index prompts_text_trgm on grids.prompts using gin (text public.gin_trgm_ops);
create index prompts_starter on grids.prompts (starter_key) where starter_key is not null;

alter table grids.prompts enable row level security;
revoke all on grids.prompts from anon, authenticated;
grant select on grids.prompts to anon, authenticated;
grant all on grids.prompts to service_role;
create policy prompts_read on grids.prompts for select to anon, authenticated using (status = 'approved');

-- Loads one block of prompts. Each line is "CODE Text": CODE is the effort
-- (1 easy .. 3 takes a day) then three letters: i/o indoor or outdoor,
-- s/t solo or together, f/l free or low-cost ("-" = either). Ids continue
-- the theme's range (theme sort * 1000 + n) in file order. Months come from
-- the seasons a prompt names.
create function pg_temp.add_prompts(p_theme text, p_starter_key text, p_lines text) returns void
  language plpgsql
  as $$
declare
  v_next int;
begin
  select coalesce(max(p.id), t.sort * 1000) into v_next
  from grids.themes t left join grids.prompts p on p.theme = t.slug
  where t.slug = p_theme group by t.sort;
  insert into grids.prompts (id, text, theme, tags, months, effort, starter_key)
  select v_next + n, btrim(substr(line, 6)), p_theme,
         array_remove(array[
           case substr(line, 2, 1) when 'i' then 'indoor' when 'o' then 'outdoor' end,
           case substr(line, 3, 1) when 's' then 'solo' when 't' then 'together' end,
           case substr(line, 4, 1) when 'f' then 'free' when 'l' then 'low-cost' end], null),
         nullif(case when line ~* '\mspring\M' then array[3, 4, 5] else '{}' end
             || case when line ~* '\msummer' then array[6, 7, 8] else '{}' end
             || case when line ~* '\mautumn' then array[9, 10, 11] else '{}' end
             || case when line ~* '\mwinter' then array[12, 1, 2] else '{}' end, '{}')::smallint[],
         substr(line, 1, 1)::smallint, p_starter_key
  from (select btrim(l.line) as line, row_number() over (order by l.k) as n
        from regexp_split_to_table(p_lines, E'\n') with ordinality as l(line, k)
        where btrim(l.line) <> '') lines;
end
$$;

-- ------------------------------------------------------------ everyday

select pg_temp.add_prompts('everyday', 'small-joys', $$
1isf Wake up without an alarm
1isf Listen to rain on the window
1isf Sing loudly in the shower
1isf Sleep in freshly washed sheets
1-sf Eat dessert before dinner
1isf Drink something warm from your favourite mug
1osf Watch the clouds drift for a while
1isf Light a candle at dinner
1isf Write down three good things from today
1isf Put on a song and dance in the kitchen
1-tf Give someone a genuine compliment
1osf Sit in the sun for ten minutes
1isf Take an afternoon nap
1isf Make a photo you took your phone wallpaper
1-tf Call someone just to say hello
1-sf Wear your brightest piece of clothing
1osf Eat lunch outside
1-sl Buy yourself a single flower
1isf Reread a favourite chapter of a favourite book
1isf Savour the first sip of a hot drink
1osf Blow bubbles and watch where they float
1isf Listen to a whole album without skipping
1isf Make toast with a fancy topping
1osf Put your bare feet on the grass
2isf Spend an evening with no screens
2isf Watch the sunrise from your window
2isl Bake something just for yourself
2isf Tidy one drawer until it sparkles
2isf Build a blanket fort and read inside it
2isl Make hot chocolate from scratch
2isf Write a letter to your future self
2isf Fill a whole page with doodles
2isl Make pancakes on a weekday
2-tf Leave a kind note for someone to find
2isf Hang up a picture you love
2itl Have a picnic on the living room floor
2isf Cook a meal you loved as a child
2isf Frame a photo from a happy day
2osf Stay up late to watch the stars
2isf Arrange a bookshelf by colour
2isf Watch a film you loved years ago
2-sl Try a new flavour of ice cream
2osf Find a bench and watch the world go by
2isf Take a long bath with music on
2-tf Send a voice message to an old friend
2osl Eat something from a bakery while it is warm
3osf Watch a sunset from somewhere high
3isl Squeeze fresh lemons for homemade lemonade
3isf Spend a whole morning in pyjamas
$$);

select pg_temp.add_prompts('everyday', null, $$
1isf Open every curtain first thing in the morning
1itf Make a cup of tea for someone at home
1isf Water every plant in the house
1isf Clear the kitchen counter completely
1isf Write the next day's list the night before
1isf Leave your phone in another room for an hour
1isf Drink a full glass of water when you wake up
1isf Eat a piece of fruit slowly, bite by bite
1isf Empty your bag and keep only what you need
1isf Set the table as if guests were coming
1isf Use the good plates on an ordinary day
1isf Hum a tune while you do the washing up
1isf Turn a chore into a race against one song
1isf Sharpen every pencil in the house
1isf Eat soup from a big mug
1isf Make warm milk with honey before bed
1isf Put a new photo on the fridge
1isf Count how many times you laugh today
1isf Eat breakfast in bed
1isf Sit in a different chair to read
1isf Warm your hands around a mug
1isf Flip through an old photo album
1isf Sit by an open window with a book
1-sf Take a photo of the morning light
1isf Put a bowl of fruit where you can see it
1isf Tell someone the best part of your day
1isf Listen to the radio instead of a screen
1isf Wrap up in a blanket straight from the dryer
2isf Cook breakfast food for dinner
2isf Eat a meal at the table with no phone
2isf Polish a pair of shoes until they shine
2isf Clean a window and notice the light change
2isf Pack tomorrow's lunch the night before
2-sf Try a new way to wear your hair
2isf Give away a book you have finished
2isf Go to bed an hour earlier than usual
2isf Get up early and enjoy the quiet house
2isf Make a breakfast with three colours on the plate
2isf Find something you lost months ago
2isf Fix one small thing that has been broken for ages
2isf Cook a meal using only what is in the cupboard
2osf Hang the washing outside to dry in the sun
2isf Iron a shirt until it is crisp
2isf Wrap a present with extra care
2isf Brew a proper pot of tea
2isf Write a list of things that make you smile
2isf Rearrange the furniture in one room
2isf Line up every pair of shoes you own
2isf Fill the house with the smell of baking
2isf Make coffee the slow way
2isf Add one lovely thing to your desk
2isf Get dressed up for no reason at all
2isf Follow a calm evening routine from start to end
2osf Drink a cup of tea outside at dusk
2isf Make a snack plate with a bit of everything
2isf Find a new use for an old jar
2isf Answer a message you have been putting off
2isf Spend a morning without checking the time
2isf Do the washing up by candlelight
2isf Clean out the fridge and cook what you find
2isf Declutter ten things you no longer use
2isf Restart a small habit you used to love
2isf Read a whole newspaper on paper
2isf Sew a button back on
2isf Make a bedtime playlist and fall asleep to it
2isf Watch the rain with a hot drink in hand
2isf Put a plant in the room where you work
2isf Tidy the spot where you keep your keys
2isf Choose tomorrow's outfit tonight
1isf Make a cup of tea and drink it while it is hot
3isf Spend a full day without online shopping or scrolling
3isf Clear out one cupboard completely
3itf Host a slow breakfast that lasts all morning
3isf Give one room a deep spring clean
3isf Keep a one-line diary for a whole day
3isf Go a whole day without complaining
$$);

-- ------------------------------------------------------------ outdoors

select pg_temp.add_prompts('outdoors', 'out-the-door', $$
1osf Step outside before breakfast
1osf Count the birds you can hear in five minutes
1osf Find a tree older than you
1osf Touch the bark of three different trees
1osf Look for animal shapes in the clouds
1osf Photograph the sky straight above you
1osf Smell a flower you do not know
1osf Find a feather on the ground
1osf Walk once around the block
1osf Spot the moon in daylight
1osf Pick up three pieces of litter
1osf Look under a stone for tiny creatures
1osf Listen to the wind in the leaves
1osf Collect five leaves that all look different
1osf Spot a bird and learn its name
1osf Find moss and feel how soft it is
2osf Walk somewhere you would usually drive
2osl Eat a sandwich on top of a hill
2osf Watch the sun go down from start to finish
2osf Walk in the rain without an umbrella
2osf Take a path you have never taken
2osf Sit by water for half an hour
2osf Climb a small hill and look back at the view
2otf Take a friend on your favourite walk
2osf Follow a stream for a while
2osf Lie on the grass and look straight up
2osf Photograph ten different shades of green
2osf Skim a stone across water
2osf Go out at night and find a constellation
2otf Play catch in a park
2osf Spot an animal track in mud or snow
2osf Walk a whole route without taking your phone out
2osf Find a wildflower and draw it
2otl Have a picnic in a park
2osf Listen for an owl after dark
2osf Watch a bee move from flower to flower
2osf Watch a storm roll in from a sheltered spot
2osf Walk at dawn and hear the world wake up
2osf Find a spider web covered in dew
2osf Watch ripples or waves on water for a while
2osf Hug a tree and feel silly about it
2osf Find the perfect climbing tree
2osf Walk barefoot on sand or soft grass
2osf Find a view that stretches for miles
2osf Take a photo looking down from a bridge
2osf Sit under a tree until a bird comes close
2osf Go for a walk in the fog
2osf Find a place where you cannot hear any cars
3osf Walk to the highest point near you
3osf Watch the sun rise outdoors
3osl Eat breakfast outdoors before the day starts
3osf Walk a new trail from start to end
3osf Spend a whole day outdoors
3otf Go stargazing away from street lights
3osf Find a waterfall, however small
3osf Walk all the way around a lake or reservoir
3otl Eat every meal of one day outside
3osf Watch for wildlife at dusk from a hidden spot
3osf Keep walking until you find a bench with a view
3otf Go on a night walk with a torch
3osf Follow a river downstream for an hour
3osf Explore a wood you have never been into
3osf Walk from sunrise to lunch
3otf Take a whole day's walk with a packed lunch
$$);

select pg_temp.add_prompts('outdoors', null, $$
1osf Breathe in the smell after rain
1osf Find a stone that fits perfectly in your hand
1osf Watch a squirrel for as long as it stays
1osf Find a pine cone
1osf Look for a snail after a shower
1osf Notice five different bird songs
1osf Find a puddle and watch the sky in it
1osf Feel the grass with your palms
1osf Catch a falling leaf before it lands
1osf Spot a butterfly and follow it with your eyes
1osf Find a heart shape in nature
1osf Photograph a tree from directly beneath
1osf Listen to your footsteps on gravel
1osf Watch the shadows move across a wall
1osf Find a flower growing through a crack
1osf Make a daisy chain
1osf Find a ladybird
1osf Sit outside and write down every sound
1osf Count the colours in a garden
1osf Spot a bird nest in a tree or hedge
2osf Go for a walk without a destination
2osf Sit outside until the street lights come on
2osf Walk the same path at two different times of day
2osf Find the biggest leaf you can
2osf Press a flower between the pages of a book
2osf Walk a woodland path and name three trees
2osf Follow the edge of a field
2osf Sketch a tree exactly as it is
2osf Go out just after a heavy shower
2osf Make a nature collage from fallen things
2osf Watch ducks on a pond for a while
2osf Find a spot to watch the wind move the grass
2osf Photograph the same tree every hour for a day
2osf Build a little tower of stones
2osf Watch the sun set behind trees
2otf Race a friend to the next lamp post
2osf Walk along a canal or river path
2osf Find a bench you have never sat on
2osf Read a chapter of a book under a tree
2osf Track the moon as it rises
2otf Fly a kite or make something that catches the wind
2osf Find a wild berry bush and leave it be
2osf Look for frogspawn or tadpoles in a pond
2osf Notice the first star appear in the evening
2osf Walk somewhere green on your lunch break
2osf Map the trees on your street
2osf Watch a single cloud until it disappears
2osf Find a hollow in a tree
2osf Walk in a new direction from your front door
3osf Find the source of a stream
3osf Walk up a hill for the sunrise
3osf Spend a day somewhere with no buildings in sight
3otf Walk the length of a beach or lakeshore
3osf Spend an hour in one spot and list what lives there
3osf Walk a long way with no map
3otf Have a walking picnic with stops along the way
3osf Watch the sky change from day to night
3osf Find a clear night and count shooting stars
3osf Walk somewhere you can only reach on foot
3osf Sit in a wood until it forgets you are there
3osf Follow an old footpath to its end
$$);

-- ------------------------------------------------------------ food

select pg_temp.add_prompts('food', 'kitchen-table', $$
1isf Eat breakfast at the table, not on the go
1isf Taste a spice on its own and describe it
1isl Try a fruit you have never eaten
1isf Make a sandwich with everything you like
1isf Drink a glass of fresh mint tea
1isf Eat a meal using only your hands
1isf Toast some seeds or nuts in a dry pan
1isf Butter warm bread and eat it straight away
1isl Buy a vegetable you cannot name
1isf Plate up your dinner like a restaurant would
1isf Eat a boiled egg with toast soldiers
1isf Make a smoothie from whatever fruit you have
1isf Eat an apple right down to the core
1isf Write down your favourite meal ever
1isf Try honey on something new
1isf Make popcorn on the stove
1isf Make cinnamon toast
1isf Eat a slice of cheese you have never tried
2isf Cook a recipe from the back of a packet
2isl Bake a loaf of bread
2isf Make soup from scratch
2isl Roast a tray of vegetables you rarely eat
2itf Cook dinner with someone else
2isl Make pizza dough by hand
2isf Make jam or compote from soft fruit
2isf Cook a dish from a country you have never visited
2isl Make fresh pasta
2isf Bake biscuits and share them
2isl Make dumplings
2isf Make a salad with at least seven ingredients
2isf Cook with an ingredient you always avoid
2isf Make your own salad dressing
2isl Try a cuisine that is new to you
2isf Make a curry from whole spices
2isf Bake a cake without a packet mix
2isf Make a pot of rice perfectly fluffy
2isf Make flatbreads in a frying pan
2isf Poach an egg
2isf Make a three-course meal at home
2isf Make a dip and eat it with raw vegetables
2isf Cook a meal without a recipe
2isf Make a stew and let it bubble for hours
2isf Make porridge with a new topping
2isf Cook something with only five ingredients
2isf Make a pie, sweet or savoury
2isf Write out a family recipe in your own hand
2isf Make croutons from stale bread
2itf Eat dinner by candlelight with someone
2isf Make a meal entirely from leftovers
2isf Cook a vegetable three different ways
2isf Make your own granola
2isf Bake scones and eat them warm
2isf Make pickles in a jar
2isf Grow a herb on the windowsill and cook with it
2isf Make a tray bake to share
2isf Cook a dish your grandparents would know
2isf Make a noodle soup
2isf Make a frittata with what is in the fridge
2isf Make fruit ice lollies
2isf Whisk cream or eggs by hand
2isf Bake a crumble with seasonal fruit
2osl Buy something from a market stall you never tried
2itf Swap a home-cooked dish with a neighbour
2isf Make a big batch of sauce and freeze some
2isf Make a meal where every dish is one colour
2itf Cook a dish someone else chooses for you
3itf Host a dinner for friends
3isl Bake a layered cake
3itf Hold a potluck where everyone brings one dish
3isf Make bread with a homemade starter
3itl Cook a feast from another country
3isf Make a pastry from scratch
3isf Cook every meal at home for a whole day
3itf Teach someone your signature dish
3isf Make a dish you once ate on holiday
3itl Have a themed dinner night at home
3isf Bake something with yeast that needs a long rise
3itf Host an afternoon tea with homemade cakes
3isf Cook a meal using only local produce
3isf Make a dessert that needs no oven
3itf Cook a meal together without speaking
$$);

select pg_temp.add_prompts('food', null, $$
1isf Smell every herb in the kitchen
1isf Eat a ripe pear over the sink
1isf Brew loose leaf tea and taste it plain
1isf Make a hot drink with fresh ginger
1isf Eat a meal with chopsticks
1isf Arrange fruit into a face on a plate
1isf Make a toasted sandwich
1isf Sprinkle salt on something sweet and taste it
1isf Taste three kinds of apple side by side
1isf Make a mug of spiced milk
1isf Eat something sour and make a face
1isf Have soup and bread for lunch
2isf Make a batch of muffins
2isf Make flapjacks
2isf Make a stir fry in under half an hour
2isf Make gnocchi from potatoes
2isf Roast a whole cauliflower
2isf Make fish or vegetable cakes
2isf Make a fruit salad with a surprise ingredient
2isf Make homemade oven chips
2isf Make a chocolate sauce and dip fruit in it
2isf Bake a savoury tart
2isf Make hummus from dried chickpeas
2isf Make your own nut butter
2isf Make a lentil soup
2isf Make crepes with sweet and savoury fillings
2isf Make a traditional breakfast from another country
2isf Cook an egg a way you never have
2isf Make a flavoured butter
2isf Make a fresh tomato sauce
2isf Make a soda bread
2itf Share a plate of food with your fingers
2isf Make spring rolls
2isf Make a pudding in a mug
2osf Pick wild blackberries
2isf Roast some peppers until they blister
2itf Bake something for a neighbour
2isf Make a rice pudding from scratch
3isf Make a cake for no occasion at all
3itf Cook a breakfast for everyone you live with
3isf Make ice cream without a machine
3itf Taste five cheeses and rank them with friends
3isf Bake a braided loaf
3itf Make a meal together from a cookbook picked at random
$$);

-- ------------------------------------------------------------ making

select pg_temp.add_prompts('making', null, $$
1isf Fold a paper plane and test it
1isf Draw your hand without looking at the paper
1isf Make a paper crane
1isf Draw the view from your window
1isf Write a short poem about today
1isf Make a bookmark
1isf Sketch your breakfast
1isf Fold a paper boat and float it
1isf Make a collage from old magazines
1isf Draw a map of your home from memory
1isf Draw a repeating pattern like wallpaper
1isf Make a paper snowflake
1isf Write a postcard with a drawing on it
1isf Decorate an envelope before you post it
1isf Make a card for no reason
1isf Draw your favourite mug
1isf Write a haiku about the weather
1isf Make a tiny book from one sheet of paper
1isf Draw a portrait of a houseplant
1isf Make a paper fortune teller
1isf Build a house of cards
1isf Make a stamp from a potato
1osf Draw with chalk on the pavement
1isf Write a story in exactly fifty words
2isf Knit or crochet a few rows
2isf Paint a picture with watercolours
2isf Sew a patch onto something you wear
2isf Make a friendship bracelet
2isf Build something from cardboard boxes
2isf Make a mobile to hang from the ceiling
2isf Paint a pebble and leave it somewhere
2isf Make a pinhole viewer from a box
2isf Make a zine about something you love
2isf Make a photo book of one year
2isf Make candles from old candle stubs
2isf Make a wreath from things you found outside
2isf Turn an old top into a shopping bag
2isf Decorate a plain mug or plate
2isf Make a puppet from a sock
2isf Make a lino print or rubber stamp
2isf Make a bird feeder from recycled things
2isf Weave a small mat from strips of fabric
2isf Make a clay pot by hand
2isf Draw a comic strip about your week
2isf Make a terrarium in a jar
2isf Mend a hole instead of throwing something away
2isf Make a necklace or keyring from beads
2isf Design your own board game
2isf Make a scrapbook page about a trip
2isf Paint with your fingers like a child
2isf Make a mosaic from broken tiles or paper
2isf Write and illustrate a recipe card
2isf Make marbled paper with ink and water
2isf Make a set of greeting cards
2isf Carve a shape into a bar of soap
2isf Build a tiny house for a toy or figurine
2isf Make a pom-pom from leftover yarn
2isf Embroider your initials on something
2isf Draw a self-portrait in a mirror
2isf Make a kite from paper and sticks
2isf Make a photo collage for your wall
2isf Paint a picture using only three colours
2isf Make a pressed flower card
2isf Build a marble run from household things
2isf Make a dreamcatcher or wall hanging
2isf Decorate a plant pot
2isf Make a paper lantern
2isf Create a family tree poster
2isf Make a cushion cover
2isf Make a shadow puppet show
2isf Stitch a simple pouch by hand
2isf Make a notebook with a handmade cover
2isf Make a diorama in a shoebox
2isf Paint a sunset from memory
2isf Make a costume out of things at home
2isf Write a song with three chords
2isf Turn an old jar into a lantern
2isf Draw a building on your street in detail
2isf Make a set of coasters
2isf Make a photo into a jigsaw puzzle
2isf Make a musical instrument from junk
2isf Make a wind chime from old keys or cutlery
2isf Make a flip book animation
2isf Paint a tiny picture the size of a stamp
2isf Make a rag rug from old clothes
2isf Build a shelf or box from spare wood

2isf Fix a wobbly chair or table
2itf Make something together with a child
2itf Build a sandcastle with a moat
2isf Write a letter in invisible ink
2isf Make a sculpture from tinfoil
2isf Make a sun print with leaves and paper
2isf Make natural dye from onion skins
2isf Make a collage self-portrait
2isf Make a glove puppet
2isf Carve a spoon or small shape from soft wood
2isf Make a mini garden in a tray
2isf Make papier mache and shape a bowl
2isf Hand-letter a quote for your wall
2isf Paint on a smooth stone or shell
2isf Turn a photo into a drawing
2isf Make a set of name tags for your jars
2isf Make a bag for your shopping from fabric
2isf Make salt dough ornaments
2isf Make a toy from a toilet roll tube
3isf Finish a craft project you abandoned
3isf Knit a whole scarf
3isf Sew a simple piece of clothing
3isf Paint a large picture for your wall
3isf Make a quilt square from old fabric
3isf Build a piece of furniture
3itf Hold a craft afternoon with friends
3isf Make a short stop-motion film
3isf Write a whole short story
3isf Restore something old to use again
3isf Bind a book by hand
3isf Make a board game and play it
3isf Print your own design onto a plain top
3isf Make a dolls house room from scratch
3isf Create an illustrated map of your area
3isf Make a photo zine of your neighbourhood
3isf Make a set of handmade gifts
3isf Fill a sketchbook page every hour for a day
3itf Make a mural with others on big paper
3isf Build a bird box
$$);

-- ------------------------------------------------------------ movement

select pg_temp.add_prompts('movement', null, $$
1isf Stretch for five minutes when you wake up
1isf Dance to one whole song
1isf Take the stairs every time today
1isf Stand on one leg while the kettle boils
1isf Touch your toes, or try to
1osf Take a short stroll after dinner
1isf Roll your shoulders and neck slowly
1isf Do ten gentle squats
1osf Take a walk during a phone call
1isf Balance a book on your head across the room
1isf Do a plank for as long as feels good
1isf March on the spot through an advert break
1isf Reach for the ceiling and hold it
1isf Try a yoga pose you have never done
1osf Walk to the shop instead of driving
1isf Wiggle your fingers and toes for a whole minute
1osf Skip for a short stretch of pavement
1isf Do a slow sun salutation
1isf Shake out your whole body to music
1osf Get off the bus one stop early
1isf Stretch your back over a chair
1isf Walk backwards down a hallway
1osf Swing your arms as you walk
1isf Dance while you wait for the kettle
1isf Stand up and sit down slowly ten times
1isf Spin a hoop around your waist, or pretend to
2osf Go for a brisk walk
2osf Try a short jog
2isf Follow a dance video all the way through
2osl Go for a swim
2osf Cycle somewhere new
2otf Play a game of frisbee
2isf Do a full stretching routine
2otf Go for a walk with a friend and talk the whole way
2osl Join an exercise class for beginners
2isf Learn a dance routine
2otf Play a game of tag
2osf Jump rope for a few minutes
2osf Walk up a steep hill without stopping
2osf Do a circuit of exercises in a park
2otl Go bowling
2otf Kick a ball around with someone
2isf Try a tai chi sequence
2osf Skate or scoot along a smooth path
2osf Walk for an hour at an easy pace
2otf Have a dance party in the living room
2otl Go ice skating
2osf Do exercises on a playground frame
2otf Play badminton or swingball
2otl Go to a climbing wall for beginners
2osf Try a walking meditation
2osf Do a lap of a running track
2osf Walk to work or school one day
2isf Practise a handstand against a wall
2isf Try a cartwheel on soft grass
2otf Teach someone a dance move
2otl Play a round of mini golf
2osf Walk every street in your neighbourhood
2otf Play hopscotch
2osf Cycle a route you usually take by car
2osf Swim in open water with a lifeguard nearby
2isf Work on your balance with your eyes closed
2otf Race someone to the end of the street
2otf Do a partner stretch
2osf Walk up and down a flight of stairs ten times
2otl Rent a rowing boat for an hour
2otf Play a game of rounders or cricket
2isf Learn to juggle with two balls
2osf Run for one song, walk for the next
2osf Go for a walk in the rain and splash in puddles
2otf Throw and catch a ball a hundred times
2osf Join a local fun run
2isf Do a slow stretch before bed
2osf Cycle with no destination
2otf Learn a traditional folk dance
2osf Go for a run at sunrise
2otl Try a trampoline park
2isf Practise standing up from the floor without hands
2otf Go for a walk and point out ten birds
2osf Try a long stretch of fast walking
2isf Learn a skipping trick
2otf Play a game of table tennis
2osf Try paddling in shallow water
2osl Go for a swim in the morning
2otf Do a workout together over video
2isf Move every hour for a whole day
2osf Walk the long way home
2osf Cycle somewhere for a snack and back
2isf Dance alone like nobody is watching
2otf Walk a friend's dog
2osf Climb every step of a tall tower or hill path
2otf Play a game of volleyball
2osf Run up a hill and walk down
2otf Go for an evening walk with your household
2osf Hop, skip and jump along a path
2osf Try a new sport for an afternoon
2isf Do ten minutes of gentle yoga
2otl Take a dance class with a friend
2osf Walk a whole nature trail
2isf Learn to do a push-up with good form
2osf Go for a walk at lunchtime every day this week
2osf Try a cycle path you have never used
2otf Play a team game in the park
2otf Play follow the leader on a walk
2isf Try chair yoga for ten minutes
3osf Walk ten thousand steps in a day
3osf Run further than you ever have
3osf Cycle to the next town
3osf Walk a long-distance path for a day
3otf Take part in a charity walk or run
3osf Swim a mile, in one go or in pieces
3osf Climb a real hill to the top
3otl Spend a day at a beach or lake swimming
3otf Enter a fun run with friends
3osf Go for a long bike ride with a picnic
3osf Walk to a place you usually travel to by bus
3otl Spend a day trying three different sports
3osf Hike to a summit
3isf Do a home workout every day for a week
3osf Spend a day moving only on foot or bike
3otf Play a full match of a sport you love
3osl Try paddleboarding or kayaking
3osf Run at dawn and watch the sun come up
3osf Walk a coastal path or river path end to end
3otl Try a beginners climbing session
$$);

-- ------------------------------------------------------------ culture

select pg_temp.add_prompts('culture', null, $$
1isf Listen to a genre of music you never play
1isf Read a poem out loud
1isf Watch a film in a language you do not speak
1isf Listen to a radio play
1isf Look closely at one painting for ten minutes
1isf Read a short story in one sitting
1isf Listen to a piece of classical music with your eyes shut
1isf Watch a documentary about an artist
1isf Learn the story behind a song you love
1isf Read the first page of ten different books
1isf Listen to music from the year you were born
1isf Watch an old black and white film
1isf Read a book of poems for an hour
1isf Listen to a whole opera aria and look up the story
1isf Watch a silent film
1isf Listen to a podcast about history
1isf Watch a play recorded for the screen
1isf Read a graphic novel
1isf Look up the meaning of your name
1isf Listen to a song in a language you do not speak
1isf Read a book by an author new to you
1isf Watch a dance performance online
1isf Listen to an audiobook on a walk
1isf Read about a painting before you see it
2isf Visit a museum you have never been to
2isf Spend an hour in a gallery
2isl Go to a live music gig
2isl See a play at a local theatre
2isf Borrow a book from the library
2isl Go to the cinema on your own
2isf Go to a free lunchtime concert
2itf Start a book club of two
2isf Visit a historic house
2isf Read a classic you always meant to
2isf Watch a film from the decade you were born
2isf Explore a library section you never browse
2isf Visit a small local museum
2isl See a comedy show
2isf Listen to a recorded speech that changed history
2osf Find a piece of public art and learn about it
2osf Visit a sculpture park
2isf Go to a poetry reading
2isl Buy a book from a second-hand shop
2osf Take a self-guided architecture walk
2isf Watch a foreign film without subtitles and guess the plot
2isf Read a whole book in a day
2itf Share a favourite album with a friend
2isf Learn about an artist who shares your birthday
2isf Go to an exhibition opening
2isl See a dance performance
2isf Listen to a full symphony
2osf Go to an outdoor performance
2itf Watch a classic film with someone who has not seen it
2isf Make a playlist that tells a story
2isf Read a book that was banned somewhere
2isf Go to a talk by an author
2osf Visit a place from a novel you read
2isf Explore a culture festival near you
2isl Go to an open mic night
2isf Read a collection of short stories
2isf Watch a film adaptation and then read the book
2isf Visit a place of worship to admire the building
2isf Read a myth from another culture
2isf Sing along to a song from another country
2isf Study one photograph by a famous photographer
2osf Go to a street festival
2isf Listen to a whole concert recording
2isf Research the history of your street
2itf Recommend a book to a friend and read theirs
2isf Watch a ballet
2isf Visit a craft or design exhibition
2isf Look at a building and learn its style
2isf Read a play out loud with others
2osl See a film at an outdoor screening
2isf Listen to folk music from where you live
2isf Find the oldest book in a library
2isf Read a biography of someone you admire
2isf Go to a museum late opening
2isf Sketch in a gallery
2isf Read a book set in a country you want to visit
2isf Learn the dance that goes with a song
2isf Watch a film that won a prize at a festival
2isf Read poetry in translation
2isf Discover the story of a local landmark
2isf Visit a gallery and pick one favourite piece
2isf Try a museum audio guide
2itf Go to a choir concert
2isf Attend a free public lecture
2itf Have a film night with a theme
2isf Write a review of a film you saw
2isf Read a newspaper from another country
2isf Learn about a festival from another culture
2isf Watch a musical from start to end
2isf Listen to the radio station of another country
2osf Go to a local heritage open day
2isf Visit a museum of everyday objects
2isf Read a book recommended by a stranger
2isf Learn a traditional craft from your region
2isf Find a mural and learn who painted it
2isl Go to an orchestra rehearsal open to the public
2isf Listen to an album from start to end with lyrics
2isf Read letters written by a famous writer
2isf Explore a museum entirely on one theme
2itf Play music together, however badly
2isf Read a book your parents loved
2isf Compare two covers of the same song
2isf Read a picture book meant for children
2isf Look up the history of a word you love
2osf Spot three building styles on one street
3isf Read a long novel you have avoided
3itl Go to a music festival
3isl See a show at a big theatre
3isf Spend a whole day in museums
3itf Host a cultural evening with food and music
3isf Read three books by one author
3isf Watch a film series in order
3isf Take a guided tour of your own town
3itf Put on a small play at home
3isf Learn a poem by heart
3isf Spend a day exploring one period of history
3itf Start a monthly film club
3isf Visit every gallery in your town
3isl Go to the opera
3itf Take a friend to their first concert
3isf Write a short film script
$$);

-- ------------------------------------------------------------ people

select pg_temp.add_prompts('people', null, $$
1-tf Say thank you to someone who helps you every day
1-tf Ask an older relative about their first job
1-tf Text a friend a memory you share
1-tf Learn the name of a neighbour
1-tf Smile at everyone you pass on a walk
1-tf Ask someone about their favourite book
1-tf Write a thank-you card and post it
1-tf Tell a friend why you are glad they exist
1-tf Share a joke with a stranger in a queue
1-tf Ask a child what they want to be
1-tf Let someone go ahead of you in a queue
1-tf Send a photo to someone it will make laugh
1-tf Hold the door for a stranger
1-tf Ask a colleague how their weekend really was
1-tf Call a grandparent or older friend
1-tf Write a message to someone you lost touch with
1-tf Pass on a compliment you heard about someone
1-tf Ask someone to teach you a word in their language
1-tf Say hello to a shopkeeper by name
1-tf Listen to a friend without giving advice
1-tf Send a postcard to someone far away
1-tf Share your umbrella with someone
1-tf Ask a friend for a song recommendation
1-tf Praise someone in front of others
2-tf Cook a meal for a friend
2-tf Have a phone call that lasts over an hour
2-tf Invite a neighbour for tea
2-tf Play a board game with family
2-tf Write a letter to a grandparent
2-tf Meet a friend halfway between your homes
2-tf Ask a parent to tell the story of how they met
2-tf Volunteer for a morning
2-tf Take a friend somewhere you love
2-tf Have a long lunch with a colleague
2-tf Spend an afternoon with someone much older
2-tf Play a game chosen by a child you know
2-tf Make a gift for a friend
2-tf Help a neighbour with a chore
2-tf Start a conversation with a stranger
2-tf Join a local club for an evening
2-tf Record a family member telling a story
2-tf Organise a games night
2-tf Look through old photos with family
2-tf Have a video call with a faraway friend
2-tf Teach someone something you know well
2-tf Ask someone to teach you their skill
2-tf Have breakfast with a friend before work
2-tf Surprise someone with their favourite snack
2-tf Write down a family recipe with the person who makes it
2-tf Sit with someone who eats alone
2-tf Make a playlist for a friend
2-tf Ask a friend what they are proud of this year
2-tf Send a care package
2-tf Meet a pen pal or online friend in person
2-tf Plan a surprise for someone you live with
2-tf Do a puzzle with someone
2-tf Go for a walk with a neighbour
2-tf Ask three people for their best advice
2-tf Help a friend move or tidy
2-tf Play a game you loved as a child with a friend
2-tf Babysit so a friend can have a night off
2-tf Ask an older neighbour about the area long ago
2-tf Have a tea party with a child
2-tf Sing a song with someone
2-tf Reconnect with a school friend
2-tf Make a card for someone having a hard time
2-tf Invite a new colleague for lunch
2-tf Say yes to an invitation you would normally skip
2-tf Visit someone who does not get many visitors
2-tf Share a meal with someone from another culture
2-tf Have a conversation with no phones on the table
2-tf Tell a family story to the youngest person you know
2-tf Watch a friend do something they love
2-tf Compliment a stranger on something they chose
2-tf Have a picnic with a neighbour
2-tf Write a poem for someone
2-tf Do a favour without being asked
2-tf Teach a grandparent something on their phone
2-tf Ask someone about the best day of their life
2-tf Leave a treat on a neighbour's doorstep
2-tf Play cards with someone older than you
2-tf Make a friend laugh until they cry
2-tf Ask a friend to show you their neighbourhood
2-tf Write a list of people who shaped you and tell one
2-tf Send a handwritten letter to a friend
2-tf Make a photo album for someone
2-tf Have dinner at the table with everyone at home
2-tf Spend a day doing what someone else chooses
2-tf Learn a handshake or greeting from a friend
2-tf Go to a community event alone and talk to someone
2-tf Offer to carry someone's shopping
2-tf Make a time capsule with your family
2-tf Introduce two friends who should meet
2-tf Give a stranger directions and walk them there
2-tf Ask a friend to pick your next book
2-tf Thank a teacher who mattered to you
2-tf Bring flowers to someone for no reason
2-tf Play a word game with someone over messages
2-tf Ask someone about a tradition from their family
1-tf Ask someone what made them smile today
2-tf Cook extra and share it with someone nearby
2-tf Take a photo of friends laughing together
2-tf Ask a grandparent what games they played as a child
2-tf Ask someone how they take their tea and remember it
3-tf Host a dinner for people who have never met
3-tf Treat a friend to a day out
3-tf Throw a small party for no occasion
3-tf Spend a whole day with a grandparent or elder
3-tf Organise a street or block gathering
3-tf Visit a friend who lives far away
3-tf Volunteer for a whole day
3-tf Make a family tree with relatives
3-tf Plan a surprise celebration
3-tf Cook a dish from your heritage for others
3-tf Help run a community event
3-tf Make a video of friends sharing memories
3-tf Have a sleepover, whatever your age
3-tf Take someone on their first trip somewhere
3-tf Interview an older relative about their life
3-tf Spend a day helping someone with a project
3-tf Hold a clothes swap with friends
3-tf Take a friend to try something new to them
3-tf Set up a book swap in your street
3-tf Host a picnic for everyone you know
3-tf Make a surprise scrapbook for a friend
$$);

-- ------------------------------------------------------------ nearby

select pg_temp.add_prompts('nearby', 'close-to-home', $$
1osf Look up at the tops of buildings on your street
1osf Find the oldest door on your street
1osf Walk a street near home you have never used
1osf Photograph a front door you love
1osf Read every plaque you pass
1osf Find a bench dedicated to someone
1osf Spot a cat in a window
1osf Find the tallest tree near your home
1osf Notice the house numbers and find the oldest style
1osf Find a hidden alley or shortcut
1osf Photograph a letterbox with character
1osf Count the chimneys you can see from one spot
1osf Find a shop sign painted by hand
1osf Look for the date carved into a building
1-sl Buy something from a shop you always walk past
1osf Find a garden that makes you stop
1osf Learn the name of a street and why it is called that
1osf Find a view of your home from far away
2osl Have a drink at a cafe you never tried
2osf Visit your nearest park at a new time of day
2osf Find the closest body of water to your home
2osf Walk to the edge of your neighbourhood
2osl Try a takeaway you have never ordered from
2osf Visit a local library branch
2osf Find a community noticeboard and read it all
2osl Go to a local market
2osf Find the spot nearby with the widest sky
2osf Find the oldest building in your area
2osf Photograph your street at night
2osl Try a local bakery you have never been into
2osf Visit a place of worship near you
2osf Take a bus to the end of the line and back
2osf Explore a local cemetery and read the stones
2osf Find a piece of street art near home
2osf Walk your neighbourhood and map the trees
2osf Find a local walking route on a map and follow it
2osf Go to a local event you would usually skip
2osf Visit a local nature reserve
2osf Find where the nearest stream goes underground
2osf Find a community garden
2osl Eat at a family-run restaurant nearby
2osf Take photos of every shopfront on a street
2osf Visit the local museum or heritage centre
2osf Walk to a neighbouring area and back
2osl Try something at a local market stall
3osf Walk down every road off your own street
3osf Spend a day being a tourist in your own town
3osf Make a map of your favourite local places
3osf Follow a local heritage trail from start to end
$$);

select pg_temp.add_prompts('nearby', null, $$
1osf Find a building with an unusual roof
1osf Spot five different kinds of fence
1osf Look for a ghost sign fading on a wall
1osf Find the quietest spot within a short walk
1osf Find a postbox and learn when it was made
1osf Count the different birds on your street
1osf Notice which houses have flowers outside
1osf Find a tree that changes your street in every season
1osf Find the best place nearby to watch the sunset
1osf Look for a lost glove or toy someone has placed up high
1osf Find a drain cover with a pattern
1osf Find a window with something funny in it
1osf Take a photo of your street from the same spot weekly
1osf Walk home by a different route
1osf Spot a wildflower growing in the pavement
1osf Find a wall covered in ivy
2osf Find out what your area looked like long ago
2osl Buy lunch from a local independent shop
2osf Walk to a local landmark you never visited
2osf Visit a local allotment or open garden
2osf Find a hidden green space nearby
2osf Explore a nearby village or suburb on foot
2osf Visit the nearest farm shop or farm
2osf Find a local viewpoint and learn what you can see
2osf Ask a shopkeeper about the history of their shop
2osf Browse a car boot sale or flea market
2osf Find a local walk with a story behind it
2osf Visit your local fire station or lifeboat open day
2osf Go to a local sports match
2osl Take a class at a local community centre
2osf Find a shop that mends things and see what they do
2osl Try a local speciality food
2osf Go to a free event at your library
2osf Find an old photo of your street and stand in the same spot
2osf Explore a local industrial building or old mill
2osf Find the nearest place to hear running water
2osf Visit a local pond and watch the wildlife
2osf Explore the nearest woodland
2osf Follow a bus route on foot for a few stops
2osf Walk around your area at sunrise
2osf Find a local place named after a person and learn why
2osf Find a statue and learn who it shows
2osf Visit a nearby hill you can see from home
2osf Take the train one stop and walk back
2osl Get your hair cut somewhere new nearby
2osf Sit in a local square and watch life go by
2osf Find the widest tree trunk you can hug
2osf Go to a local craft fair
2osf Join a local litter pick
2osf Find the best bench in your area
2osf Walk to a nearby bridge and look at the view
2osf Look for old boundary stones or markers
2osf Find where the edge of your town meets the fields
2osf Visit a local garden centre just to look
2osf Explore the back streets behind the high street
2osf Find a local piece of history on a map and visit it
2osf Discover a local stream, spring or well
2osf Walk around the outside of your local park
2osf Find a mural you have never noticed
2osf Visit a local theatre or hall and read the listings
2osl Try a snack from a corner shop you never use
2osf Go to a local talk or meeting
2osf Find a local shop that has been open for decades
2osl Order something new at your usual cafe
3osf Walk from your home to the next town
3osf Photograph every bridge in your area
3osf Cycle or walk the boundary of your town
3osf Visit every park in your area over a day
3osf Make a walking tour of your area for a friend
3osf Find ten things in your area you never noticed
3osf Explore your area using only an old map
3osf Spend a whole day within a short walk of home
3osf Write a guide to your street for a newcomer
3osf Plan a route linking your favourite local spots
3osf Visit every corner shop in your area
3osf Walk every path in your local park
$$);

-- ------------------------------------------------------------ seasons

select pg_temp.add_prompts('seasons', 'through-the-year', $$
1osf Find the first blossom of spring
1osf Hear the first birdsong of a spring morning
1osf Spot a bud about to open in spring
1osf Look for lambs, chicks or ducklings in spring
1osf Find a bluebell, crocus or daffodil in spring
1isf Open every window on the first warm spring day
1osf Eat an ice lolly on a hot summer day
1osf Watch the long summer evening light fade
1osf Lie in the shade on a summer afternoon
1osf Find a summer flower with a strong scent
1osf Catch the first autumn leaf as it falls
1osf Kick through a pile of autumn leaves
1osf Collect conkers, acorns or seeds in autumn
1osf Photograph a tree in full autumn colour
1osf Notice your breath in the cold winter air
1osf Find frost patterns on a winter morning
1isf Watch the winter rain from somewhere warm
1osf Spot a robin or another winter bird
1isf Wrap up in a blanket on a winter evening
1osf Notice the first morning that feels like autumn
2osf Plant seeds in spring and watch for shoots
2isf Give your home a spring clean with the windows open
2osf Go for a spring walk in a bluebell wood
2osf Listen to the dawn chorus in spring
2osl Make a spring salad with fresh new leaves
2osf Find frogspawn in a spring pond
2osf Watch spring lambs in a field
2osf Press a spring flower in a book
2osf Spend a spring afternoon lying in a meadow
2osl Buy the first strawberries of summer
2osf Swim outdoors on a summer day
2osf Have a summer picnic at golden hour
2osf Watch a summer thunderstorm from a safe spot
2osf Find a shady spot to read on a summer afternoon
2osf Sleep with the window open on a summer night
2osf Watch bats fly at dusk in summer
2osl Make a jug of iced tea on a summer afternoon
2osf Stay outside until dark on midsummer evening
2osf Dip your feet in cool water in summer
2osf Pick summer berries
2osl Eat dinner outdoors on a summer evening
2isf Bake with apples in autumn
2osf Make a collage of autumn leaves
2isf Make a pot of soup on the first cold autumn day
2osf Go for a walk in autumn mist
2osf Find mushrooms on an autumn walk and photograph them
2osf Watch geese fly over in autumn
2isf Light the first candle of autumn
2osf Find the brightest red leaf of autumn
2isf Roast autumn vegetables on a cold evening
2osf Watch the autumn sunset come earlier each day
2osf Walk through the woods on a crisp winter morning
2isf Make a warm winter drink with spices
2osf Build a snowman, however small, in winter
2osf Go out at night to see winter stars
2isf Make a winter decoration from nature
2osf Feed the birds through a cold winter week
2isf Read by lamplight on a long winter night
2osf Walk in winter sunshine at midday
2isf Bake something warming on a winter weekend
2osf Watch the sun set early on a winter afternoon
2osf Photograph a frosty spider web in winter
2isf Plan the year ahead on a quiet winter evening
2osf Mark the longest day with a sunset walk
2osf Mark the shortest day with a candle at dusk
2osf Photograph one tree in every season
2osf Find the first leaf buds after winter
2osf Walk in warm summer rain
2osf Watch leaves change colour on one branch in autumn
2isf Make a winter soup with root vegetables
3osf Spend a spring morning planting a window box
3osf Climb a hill to see spring colour spread below
3otl Have a whole summer day at the seaside or a lake
3osf Camp in the garden on a summer night
3osf Watch a summer sunrise before the heat
3osf Walk through an autumn forest for a whole afternoon
3isl Make jam or chutney from an autumn harvest
3osf Go on an autumn walk to gather a full basket of treasures
3osf Walk to a viewpoint on a clear winter day
3itf Host a warming winter supper for friends
3osf Spend a snowy winter day outside
$$);

select pg_temp.add_prompts('seasons', null, $$
1osf Notice the first daffodils of the year
1osf Count the different greens of early spring
1osf Hear the rain on new spring leaves
1osf Feel the first warm sun of the year on your face
1osf Smell cut grass on a summer evening
1osf Watch dandelion seeds blow away
1osf Find a seed pod and open it
1osf Catch a falling sycamore seed
1osf Notice the days getting longer
1osf Notice the first evening you need the lights on early
1osf Watch the first snowflakes fall
1osf Make a snow angel
2osf Go blackberry picking in late summer
2osf Find fallen apples or pears under a tree
2osf Watch the harvest moon rise
2isf Make a spring posy for your table
2isf Decorate your table with things from the season
2osf Photograph frost on a window
2osf Walk in the first snow before anyone else
2osf Watch a meteor shower on a summer night
2osf Find a dragonfly by a summer pond
2osf Spot swallows or swifts arriving in spring
2osf Listen for the first cuckoo or spring bird
2osf Visit a tree in blossom at dusk
2isf Make elderflower cordial in early summer
2osf Look for fungi after autumn rain
2isl Carve a pumpkin or squash in autumn
2isf Toast seeds from an autumn squash
2isf Make a leaf rubbing in autumn
2osf Find holly or ivy on a winter walk
2isf Make a bird feeder for the winter
2osf Go for a walk on the first frosty morning
2isf Make marmalade in winter
2osf Watch the sun rise late on a winter morning
2osf Listen to the silence of a snowy street
2isf Write down your hopes at the turn of the year
2osf Visit a garden each season and compare
2isf Make a seasonal playlist
2osf Follow one hedgerow through the year
3osf Walk a route in spring you last walked in winter
3osf Grow a summer vegetable from seed
3osf Gather a whole autumn harvest from your garden
3isf Make a wreath from winter greenery
3osf Watch a full summer day from sunrise to sunset
$$);

-- ------------------------------------------------------------ calm

select pg_temp.add_prompts('calm', null, $$
1isf Breathe slowly in and out ten times
1isf Sit in silence for five minutes
1isf Drink a cup of tea without doing anything else
1isf Watch a candle flame for a few minutes
1isf Listen to a piece of music lying down
1isf Write down everything on your mind, then close the book
1isf Notice five things you can see, hear and feel
1isf Take a slow shower and notice the warmth
1isf Stretch gently before sleep
1osf Watch leaves move in the wind
1isf Colour in a pattern slowly
1isf Put your hand on your heart and feel it beat
1isf Close your eyes and listen to the room
1isf Make a list of things you are grateful for
1isf Tidy a small space slowly and carefully
1isf Read a few pages of a gentle book before bed
1isf Turn off notifications for an afternoon
1isf Lie on the floor and let your body feel heavy
1osf Watch water flow for a few minutes
1isf Light incense or a scented candle and breathe
1isf Massage your own hands with lotion
1isf Smell something comforting and remember why
1isf Listen to the sound of rain or waves
1osf Look at the night sky for five minutes
1isf Relax each part of your body from toes to head
2isf Try a guided meditation
2osf Take a slow walk and notice each step
2isf Spend an hour with no phone at all
2isf Write in a journal for twenty minutes
2isf Do a jigsaw puzzle
2isf Knit, sew or draw slowly with no goal
2isf Soak in a bath lit only by candles
2osf Sit under a tree and just be there
2isf Make a calm corner at home
2isf Listen to an album in the dark
2isf Do a breathing exercise before each meal
2osf Find a quiet place and sit for a while
2isf Spend a morning in silence
2isf Arrange flowers slowly
2isf Make a cup of tea as a ceremony
2isf Go to bed early with a book
2isf Write a letter you do not send
2isf Do a slow yoga session
2isf Declutter one corner and enjoy the space
2osf Watch the sky turn from blue to dark
2osf Sit by a river and listen
2isf Draw a mandala
2isf Spend an evening by candlelight
2isf Listen to birdsong recordings with eyes closed
2osf Walk in a garden without talking
2isf Sort your photos calmly
2isf Make a gratitude jar
2isf Water your plants and talk to them
2osf Lie in a hammock or on a rug in the sun
2isf Keep your phone off until lunch
2isf Breathe in time with slow music
2isf Do one thing at a time all morning
2isf Eat a meal slowly, noticing every taste
2isf Write a list of what you can let go of
2isf Watch snow or rain fall without a screen
2isf Practise a body scan before bed
2osf Sit on a bench and watch the clouds
2isf Spend an hour reading poetry slowly
2osf Listen to the sea or a stream
2isf Make your bedroom a peaceful place
2isf Spend time stroking a pet
2isf Play slow music and stretch to it
2osf Walk in a wood and touch the trees
2isf Write down a worry and then tear it up
2isf Sit in a quiet place of worship or reflection
2isf Listen to a sleep story
2isf Drink a calming herbal tea before bed
2isf Leave a whole evening empty and see what happens
2isf Watch fish in a pond or tank
2isf Sit by a window on a rainy day
2isf Spend a whole meal in silence
2osf Find a spot with a wide view and rest there
2isf Try a breathing pattern that slows you down
2isf Make your own bath salts
2isf Lie on your back and watch the ceiling shadows
2isf Let yourself be bored for half an hour
2osf Float in water and look at the sky
2isf Practise saying no to one thing
2isf Fold clothes slowly and mindfully
2isf Leave your watch off for a day
2isf Write three calm words and keep them close
2isf Sit with a cup of something warm at dawn
2isf Notice your breathing every hour
2osf Watch birds at a feeder for a long while
2isf Do a slow puzzle book with a pencil
2isf Paint without a plan
2isf Listen to a singing bowl or chime
2isf Sit on the floor and do nothing
2osf Go for a quiet walk at night
2isf Spend an evening reading by a lamp
2isf Hum slowly and feel the vibration
2isf Count your breaths up to a hundred
2osf Find a peaceful garden and stay a while
2isf Sink into a favourite chair with a blanket
2isf Take a digital break for a whole evening
2isf Make a calming playlist for hard days
2isf Write down what went well this week
2osf Watch a sunset in silence
2isf Make a nest of cushions and rest
1isf Sit with your eyes closed and feel the sun
1isf Trace the outline of your hand slowly with a finger
2osf Listen to the garden at dusk
2isf Sip warm water slowly first thing
2isf Look at a photo of a happy place for a while
2isf Write a slow, careful page of handwriting
3isf Spend a full day offline
3isf Go on a quiet retreat day at home
3osf Walk alone for a whole morning
3isf Keep a calm journal for a whole day
3osf Spend a day near water
3isf Have a slow day off from start to end
3isf Clear your diary for a whole day
3osf Spend a day in a garden or park doing little
3isf Practise meditation three times in one day
3isf Spend a day without any news
3osf Visit a quiet place you have never been
3isf Do one slow thing every hour for a day
3isf Write a long, kind note to yourself
3osf Take a train journey just to watch the view
3isf Make a whole day of small rituals
$$);

-- ------------------------------------------------------------ learning

select pg_temp.add_prompts('learning', null, $$
1isf Learn five words in a new language
1isf Find out how a rainbow forms
1osf Learn the name of a star and find it
1isf Look up a word you use but cannot define
1isf Learn one knot and tie it from memory
1isf Find out how your town got its name
1isf Learn a card trick
1isf Learn to say thank you in five languages
1osf Name the clouds you see today
1isf Read about an invention you use daily
1isf Learn to fold a napkin in a fancy way
1isf Master a tongue twister
1isf Watch a lesson on something you know nothing about
1isf Learn a fact about your favourite animal
1isf Learn the story behind a holiday you celebrate
1isf Look at a map and learn a country's neighbours
1isf Discover why bread rises
1isf Stump someone with a riddle
2osf Identify a tree from one leaf
1isf Learn how to say hello in sign language
1isf Recite the alphabet backwards
1isf Find out why the sky is blue
1osf Learn what the moon phase is tonight
1isf Learn a new word and use it three times
2isf Pick out a tune by ear on any instrument
2isf Learn to draw a face
2isf Teach yourself to juggle three things
2isf Take a free online class
2isf Learn the basics of a board game like chess
2isf Find out why onions make you cry
2isf Work out how to read sheet music
2isf Learn the words to a song you always hum
2osf Identify ten birds by their song
2isf Learn a magic trick well enough to perform
2isf Learn to touch type for an hour
2isf Learn to change a bike tyre
2osf Identify three constellations tonight
2isf Practise whistling with your fingers
2isf Learn the basics of first aid
2isf Learn to sew a hem
2isf Learn to make a simple website
2isf Learn a dance step from a video
2isf Learn to sketch in perspective
2isf Learn about the history of your family name
2isf Discover what happens to food after you swallow
2isf Learn the rules of a sport you do not follow
2isf Learn to take a better photo with your phone
2isf Learn a phrase in the language of a friend
2isf Learn to plant and care for a herb
2isf Learn to fix a dripping tap
2isf Learn calligraphy for an afternoon
2isf Learn how to read a paper map
2osf Identify five mushrooms from pictures, never by taste
2isf Read about a scientist you never heard of
2isf Find out why planes stay in the air
2isf Learn to play a simple tune on the piano
2isf Learn a new recipe from another culture
2isf Trace how electricity reaches your home
2isf Solve one face of a puzzle cube
2isf Write a tiny computer program
2isf Learn the basics of budgeting
2osf Learn to navigate using the sun
2isf Learn the history of a building you pass daily
2isf Work out how the gears on a bike work
2isf Memorise the first row of the periodic table
2isf Learn a few words of an ancient language
2isf Learn to cast on stitches
2isf Learn to meditate for a short while
2osf Recognise three common weeds by name
2isf Learn how to press and dry flowers
2isf Name the planets in order from memory
2isf Learn about the history of tea or coffee
2isf Discover how a clock keeps time
2isf Learn to crochet a chain
2isf Teach yourself a playground game from another country
2isf Learn how to draw an animal step by step
2isf Measure your home and draw a floor plan
2isf Learn the story of a famous painting
2isf Map where your family lived over the generations
1isf Look up how far away the moon is today
2isf Take apart something broken to see inside
2isf Learn the rules of a game older than your grandparents
2isf Learn to make a simple budget spreadsheet
2isf Find out where your recycling goes
2isf Find out why leaves change colour
2isf Learn to read a weather map
2isf Find out how bees make honey
2isf Learn to tie a tie or a scarf three ways
2isf Learn a word in every language you hear today
2osf Find the pole star on a clear night
2isf Learn how to make a compass with a needle
2isf Learn a few chords on a guitar or ukulele
2isf Learn the history of a game you love
2isf Learn about a culture through its food
2isf Learn the rules of a card game for two
2isf Sprout a bean in a jar and watch it grow
2isf Learn a simple origami animal
2isf Name the bones of your hand
2isf Learn to write your name in another script
2isf Learn the basics of a new language app
2osf Identify a tree from its bark alone
2osf Trace your local river on a map to the sea
2isf Find out how a local bridge was built
2isf Find out what the colours of a flag mean
2isf Learn how to do a basic bike check
2osf Find out which animals live near your home
2isf Work out how far you can see from a hill
2isf Learn a few phrases of the local dialect
2isf Find out who lived in your home before you
2isf Trace one meal back to where it was grown
3isf Practise one piece of music until you can play it through
3isf Finish a short online course
3isf Learn a new language for a whole day
3isf Learn to cook a complete meal from another country
3isf Read a whole book on a subject new to you
3itf Join a beginners workshop to learn a skill
3isf Learn to do a skill you always said you could not
3isf Learn to swim a new stroke
3isf Learn to draw a full portrait
3isf Learn to repair your own clothes
3isf Build something from an instruction video
3isf Memorise a speech or long poem
3itf Teach what you learned to someone else
3isf Spend a day learning only by doing
3isf Read a page of an encyclopaedia at random
$$);

-- ------------------------------------------------------------ new things

select pg_temp.add_prompts('new-things', 'hundred-firsts', $$
1-sf Eat breakfast somewhere new
1isl Order a drink you cannot pronounce
1isf Sleep on the other side of the bed
1isf Brush your teeth with your other hand
1isf Write with your other hand for a page
1-sf Take a new route to somewhere familiar
1isf Listen to a radio station you never choose
1isl Try a new fruit or vegetable
1isf Read a magazine on a subject you know nothing about
1isf Watch a film genre you usually avoid
1-sl Order the dish you would never choose
1isf Try a new hairstyle for a day
1isf Wear a colour you never wear
1isf Cook with a spice you have never used
1-tf Say yes to the first thing someone suggests
1isf Sit in a different seat at the table
1isf Change the layout of your desk
1isf Bake or buy a bread you never tasted
1osf Turn left where you always turn right
1-tf Talk to someone you usually only nod to
1isf Learn a word in a language you never studied
1isf Try a podcast on a topic new to you
1isl Drink a tea you have never tasted
1isf Try a board game you have never played
1isl Eat a cereal you have never tried
2-sl Visit a shop you have never entered
2osl Play a sport you only ever watch
2isl Take a class in something new
2isl Eat at a restaurant serving food new to you
2osf Go somewhere you have never been on foot
2isf Cook a recipe with a technique new to you
2osl Take a form of transport you never use
2isf Read a book from a shelf you never browse
2osl Go to a kind of event you never attend
2isf Try a new exercise for the first time
2osl Try a new cafe, stall or restaurant
2isf Watch the sunrise for the first time in ages
2isf Try writing a poem for the first time
2isl Try an instrument for the first time
2-tf Introduce yourself to a neighbour
2osf Swim in a new place
2isf Make something you have only ever bought
2osf Visit a town you have never stopped in
2isl Try a dance style you have never tried
2osf Have a picnic somewhere new
2isl Go to a new kind of museum
2isf Try a different way of making coffee or tea
2osl Take a different train or bus line
2isf Paint for the first time in years
2isf Listen to a band a friend loves
2-sl Try a dessert from another culture
2osf Try fishing, rowing or another water activity
2isf Try meditation for the first time
2osl Go to a farmers market you never visited
2isf Try to bake something you think is too hard
2-tf Join a group activity alone
2osf Walk a trail you have never walked
2osl Try a new flavour combination for lunch
2isf Have a go at knitting, pottery or weaving
2isl Go to a class at a new gym or centre
2osf Find a new favourite spot to sit
2isf Try a new recipe for breakfast
2-tf Start a conversation in another language
2isl Try a vegetarian or vegan dish you never had
2osf Watch the stars from a new place
2osf Try a new outdoor game
2isf Write a short story for the first time
2isl See a film at a different cinema
2osf Try foraging with a guidebook
2osl Try a boat, ferry or canoe ride
2osf Take a photo walk in a new area
2osl Try rock pooling, birdwatching or bug hunting
2isf Solve a puzzle type you never tried
2-sl Buy a book in a genre you never read
2isf Learn a new song on a first listen
2isf Try a new route for your usual run or walk
2isl Cook from a cookbook you have never opened
2osf Sit somewhere you have never sat in your town
2-tf Try a hobby a friend loves
2osl Go birdwatching for the first time
2isf Try a new way to write a to-do list
2osf Go to a beach, lake or river you never visited
3osl Take a day trip somewhere new
3osf Climb a hill you have never climbed
3itl Go to an event on your own for the first time
3isl Try an activity that scares you a little
3osf Spend a night somewhere new
3isf Cook a whole meal you have never made
3osl Try an outdoor activity for a whole day
3itf Host a gathering for the first time
3osf Get lost on purpose and find your way back
3isl Take a workshop in a craft new to you
3osf Go somewhere new without a plan
3itl Take part in a quiz night for the first time
3isf Spend a day without doing anything routine
3osl Visit a city you have never seen
3isf Make a short film for the first time
3otl Try a new outdoor sport with a friend
2osf Try a local tradition for the first time
1isf Sleep with the curtains open for once
$$);

select pg_temp.add_prompts('new-things', null, $$
1isf Use a word you just learned in a sentence
1isf Make your bed a new way
1isf Swap your usual breakfast for something new
1isf Eat lunch at a different time
1osf Sit on a different bench than usual
2isl Buy an ingredient you have never cooked
2osf Take a photograph from a new angle
2isf Try to draw with your eyes closed
2osl Try a food truck you never stopped at
2isf Play a video game genre you never tried
2-tf Ask a stranger for a recommendation and follow it
2isf Try a new sleeping routine for a night
2osf Try a new outdoor spot for lunch
2isf Reorganise your kitchen in a new way
2-sf Go somewhere you have always meant to go
2isl Ask for the chef's choice when you eat out
2isf Try a new morning routine
2isf Watch a sport you have never watched
2osf Watch the sunset from a spot you have never stood
2isf Try a new hobby from a library book
3osl Take a train somewhere you have never been
3isf Try a whole day of firsts
3osl Explore a neighbourhood you have never visited
3itf Plan a day of firsts for a friend
3osf Sleep under the stars for the first time
$$);
