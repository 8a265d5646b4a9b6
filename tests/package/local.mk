## tests/package — the Debian package (make deb) installed into a minimal Debian 12 root, and run there:
## --version, --once with SCRAM against a real Kafka 4.x on 127.0.0.1, --demo in tmux at 80x24. Not in
## TESTS (it needs the .deb, root and minutes): `make check-deb` runs it after `make deb` (.ci/run does).
PACKAGE_TESTS = tests/package/test_deb_root.py
EXTRA_DIST += $(PACKAGE_TESTS)

## `make deb`: lagtop_VERSION_ARCH.deb in the build tree, built by dpkg-buildpackage from this release's
## tarball (so the tarball is what builds; debian/ is in it), then checked by lintian (its accepted
## tags, each with its reason, are in debian/lagtop.lintian-overrides). debian/changelog must be at
## configure.ac's version.
DEB_BUILD_DIR = deb-build
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules debian/source/format \
	debian/examples debian/lagtop.docs debian/lagtop.lintian-overrides
deb: dist-gzip
	@v=$$(dpkg-parsechangelog -l $(srcdir)/debian/changelog -S Version) && test "$$v" = "$(PACKAGE_VERSION)" || \
		{ echo "make deb: debian/changelog is at $$v, configure.ac at $(PACKAGE_VERSION): add a changelog entry" >&2; exit 1; }
	rm -rf $(DEB_BUILD_DIR) && mkdir $(DEB_BUILD_DIR)
	tar -xzf $(distdir).tar.gz -C $(DEB_BUILD_DIR)
	cd $(DEB_BUILD_DIR)/$(distdir) && CC='$(CC)' dpkg-buildpackage -b --no-sign -Jauto
	rm -f $(PACKAGE)_*.deb
	mv $(DEB_BUILD_DIR)/$(PACKAGE)_$(PACKAGE_VERSION)_*.deb .
	lintian --fail-on error,warning --info $(PACKAGE)_$(PACKAGE_VERSION)_*.deb
	rm -rf $(DEB_BUILD_DIR)
check-deb:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(PACKAGE_TESTS)'
.PHONY: deb check-deb
clean-local: clean-local-deb
clean-local-deb:
	rm -rf $(DEB_BUILD_DIR) $(PACKAGE)_*.deb
.PHONY: clean-local-deb
