"""Generated plugins for the registry figures: N minimal C plugins in one
folder (one compiled, the rest copies with their id patched), the C loop
that dlopens them in one process, and a private cache. `described` plugins
carry a description (ABI 1.3), which the host reads without loading them;
the others are scanned."""
import os
import tempfile

from common import compile_c, helper, plain_env, timed_plain


class PluginFarm:
    def __init__(self, described=True):
        self.scratch = tempfile.mkdtemp(prefix="bench-registry-")
        os.chmod(self.scratch, 0o755)
        template = compile_c(helper("registry_plugin.c"), os.path.join(self.scratch, "template.so"), shared=True,
                             extra=["-DBENCH_DESCRIBED"] if described else [])
        with open(template, "rb") as f:
            self.template = f.read()
        self.loop = compile_c(helper("registry_loop.c"), os.path.join(self.scratch, "loop"), extra=["-ldl"])
        self.empty = self.directory(0)
        cache = os.path.join(self.scratch, "cache")
        self.env = plain_env({"XDG_CACHE_HOME": cache, "HOME": self.scratch, "XDG_DATA_HOME": self.scratch})
        self.cache_file = os.path.join(cache, "presenter-host", "registry.cache")

    def directory(self, count):
        path = os.path.join(self.scratch, "plugins-%d" % count)
        if not os.path.isdir(path):
            os.makedirs(path)
            for index in range(count):
                with open(os.path.join(path, "libbench%05d.so" % index), "wb") as f:
                    f.write(self.template.replace(b"p00000", b"p%05d" % index))
            os.chmod(path, 0o755)
        return path

    def timed(self, argv):
        """(seconds, peak RSS KiB) of argv with the farm's environment; exits on failure."""
        seconds, status, rss, _ = timed_plain(argv, self.env)
        if status != 0:
            raise SystemExit("bench: %s exited with wait status %d" % (" ".join(argv), status))
        return seconds, rss

    def drop_cache(self):
        if os.path.exists(self.cache_file):
            os.unlink(self.cache_file)

    def close(self):
        import shutil
        shutil.rmtree(self.scratch, ignore_errors=True)
