## themes — colour themes (libconfig), installed to pkgdatadir.
