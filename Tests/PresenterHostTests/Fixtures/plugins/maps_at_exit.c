/* Not a plugin: preloaded (LD_PRELOAD) into presenter-host by
 * HostLoadsNoPluginCodeTests. When a process whose executable is named
 * presenter-host exits, it copies that process's /proc/self/maps to
 * $MAPS_DIR/<pid>.maps: what the host had mapped at its end, plugins
 * included, had it loaded any. Other processes (the command, the
 * presenter process, the scan helper) write nothing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((destructor)) static void save_maps(void) {
    const char *dir = getenv("MAPS_DIR");
    char exe[4096];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (dir == NULL || length <= 0) return;
    exe[length] = '\0';
    const char *slash = strrchr(exe, '/');
    if (strcmp(slash ? slash + 1 : exe, "presenter-host") != 0) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%d.maps", dir, (int)getpid());
    int in = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    char buffer[65536];
    ssize_t count;
    while (in >= 0 && out >= 0 && (count = read(in, buffer, sizeof buffer)) > 0) {
        if (write(out, buffer, (size_t)count) != count) break;
    }
    if (in >= 0) close(in);
    if (out >= 0) close(out);
}
