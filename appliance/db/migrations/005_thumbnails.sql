-- When the live stream's latest still was taken (media/thumbs/<id>.jpg); null until the first one.
alter table streams add column thumbnail_at timestamptz;
