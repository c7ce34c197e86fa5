/* The baseline of a cold --list: read a folder, dlopen each .so
 * (RTLD_NOW | RTLD_LOCAL), call its entry point and read its descriptors, in
 * one C process. */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "presenter_abi.h"

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    DIR *dir = opendir(argv[1]);
    if (dir == NULL) return 66;
    struct dirent *entry;
    char path[4096];
    int count = 0;
    while ((entry = readdir(dir)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length < 4 || strcmp(entry->d_name + length - 3, ".so") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], entry->d_name);
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) continue;
        presenter_descriptor_fn entry_point = (presenter_descriptor_fn)dlsym(handle, PRESENTER_ENTRY_SYMBOL);
        if (entry_point == NULL) continue;
        for (uint32_t index = 0; entry_point(index) != NULL; index++) count += strlen(entry_point(index)->id) > 0;
    }
    closedir(dir);
    printf("%d\n", count);
    return 0;
}
