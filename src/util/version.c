/*
 * version.c: what this build is: the version, the git commit it was built
 * from (stamped at build time into build_version.h by
 * cmake/version_stamp.cmake; "unknown" outside a git checkout, with
 * "-modified" when tracked files differed from the commit), and the
 * backends built in. The programs print these for --version.
 */
#include "util/version.h"

#include "build_version.h"

const char *cz_build_version(void) { return CUZK_VERSION; }

const char *cz_build_commit(void) { return CUZK_GIT_COMMIT; }

const char *cz_build_backends(void)
{
#if defined(CUZK_GPU_MODEL)
    return "cpu, cuda (over the host model of the device)";
#elif defined(CUZK_HAVE_CUDA)
    return "cpu, cuda";
#else
    return "cpu";
#endif
}
