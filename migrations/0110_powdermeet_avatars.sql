-- PowderMeet's avatars: the app uploads a JPEG to `<user id>/avatar.jpg` and shows
-- it from the public URL with no headers. AirStrive's `avatars` bucket keeps its
-- own rule (WebP, seen by friends and grid companions only), so PowderMeet's key
-- maps its `avatars` to this public bucket (policies in sql/faces/powdermeet.sql).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('powdermeet-avatars', 'powdermeet-avatars', true, 2097152, array['image/jpeg', 'image/png'])
on conflict (id) do nothing;
