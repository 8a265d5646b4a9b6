## themes — colour themes (libconfig), installed to $(pkgdatadir)/themes. Users add their own in
## ~/.config/lagtop/themes (same format; a file named like a shipped theme replaces it).
themesdir = $(pkgdatadir)/themes
dist_themes_DATA = themes/default.conf themes/light.conf themes/high-contrast.conf
