#!/usr/bin/env bash
# ctest: labels=unit timeout=600
# The RSS soak of tests/test_daemon_rss_soak.sh in the unit suite: 2,000
# small jobs (20 samples of 100), the same level-off checks. The full
# 20,000-job run is labelled slow.
CZ_SOAK_JOBS=${CZ_SOAK_JOBS_SHORT:-2000} exec bash "$(dirname "$0")/test_daemon_rss_soak.sh"
