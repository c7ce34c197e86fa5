/* libseccomp (Debian's libseccomp-dev; scripts/setup installs it), the
 * library the host builds its seccomp filters with: never hand-written BPF. */
#include <seccomp.h>
