# Configure with -DCMAKE_INSTALL_PREFIX=/usr, then `cpack -G DEB` in the build directory makes a Debian package of both programs and the
# systemd user units. Runtime dependencies are left to dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME companyos)
set(CPACK_PACKAGE_VENDOR "companyOS")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop automation daemon and CLI driven through AT-SPI")
set(CPACK_PACKAGE_CONTACT "companyOS maintainers")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "at-spi2-core, libglib2.0-bin")
include(CPack)
