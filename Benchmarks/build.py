"""What the bench builds before it measures: the release binary, the
indicatif peer (from Debian's crates, offline), and its C and Swift helpers,
all outside the source tree except SwiftPM's own build folder."""
import os
import shutil
import subprocess

from common import HELPERS, ROOT, log

PEER = os.path.join(os.path.dirname(ROOT), "shared", "reference", "peers", "indicatif-spin")
PEER_FALLBACKS = ("/work/shared/reference/peers/indicatif-spin",)
# Debian's librust-*-dev packages put their crates' sources here, as a cargo
# directory source (each crate with its .cargo-checksum.json).
DEBIAN_REGISTRY = "/usr/share/cargo/registry"


def swift_release(scratch_path, skip_build):
    """The release build's bin folder (scripts/release-build: what is installed and packaged)."""
    build = [os.path.join(ROOT, "scripts", "release-build")] + (["--scratch-path", scratch_path] if scratch_path else [])
    if not skip_build:
        # What building needs besides the toolchain (libseccomp's headers).
        subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True, cwd=ROOT)
        log(" ".join(build))
        subprocess.run(build, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return subprocess.run(build + ["--show-bin-path"], check=True, cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def swift_release_with_test_switches(scratch_path, skip_build):
    """The release build, compiled with the test switches the product leaves
    out (PRESENTER_HOST_TEST_SWITCHES: PRESENTER_HOST_SANDBOX_OFF), in a
    scratch path of its own: what the sandbox part turns layers off in."""
    scratch = (scratch_path or os.path.join(ROOT, ".build")) + "-test-switches"
    build = [os.path.join(ROOT, "scripts", "release-build"), "--scratch-path", scratch,
             "-Xswiftc", "-DPRESENTER_HOST_TEST_SWITCHES"]
    if not skip_build:
        log(" ".join(build))
        subprocess.run(build, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return subprocess.run(build + ["--show-bin-path"], check=True, cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def apt_install(*packages):
    log("apt-get install %s" % " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "install", "-y", "-qq"] + list(packages), env=env,
                      stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq"] + list(packages), env=env, check=True,
                       stdout=subprocess.DEVNULL)


def peer_source():
    given = os.environ.get("BENCH_INDICATIF_SPIN")
    for path in ((given,) if given else ()) + (PEER,) + PEER_FALLBACKS:
        if os.path.exists(os.path.join(path, "Cargo.toml")):
            return path
    raise SystemExit("bench: the indicatif peer is not in ../shared/reference/peers/indicatif-spin; "
                     "set BENCH_INDICATIF_SPIN to its folder")


def indicatif_spin(scratch):
    """Builds indicatif-spin in release, offline, from Debian's crates, in
    scratch/indicatif-spin (a copy of the peer's folder: shared/ is read-only,
    and no Rust build output goes near the repository); returns the binary."""
    home = os.path.join(scratch, "indicatif-spin")
    binary = os.path.join(home, "target", "release", "indicatif-spin")
    crates = os.listdir(DEBIAN_REGISTRY) if os.path.isdir(DEBIAN_REGISTRY) else []
    if not any(name.startswith("indicatif-") for name in crates):
        apt_install("librust-indicatif-dev")
    if shutil.which("cargo") is None:
        apt_install("cargo")
    source = peer_source()
    if os.path.exists(binary) and os.path.getmtime(binary) >= max(
            os.path.getmtime(os.path.join(source, name)) for name in ("Cargo.toml", "src/main.rs")):
        return binary
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(source, home)
    for directory, _, files in os.walk(home):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)
    # The peer's .cargo/config.toml replaces crates.io with the directory
    # source; written again here so the build never depends on it being there.
    os.makedirs(os.path.join(home, ".cargo"), exist_ok=True)
    with open(os.path.join(home, ".cargo", "config.toml"), "w") as f:
        f.write('[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "%s"\n\n'
                '[net]\noffline = true\n' % DEBIAN_REGISTRY)
    command = ["cargo", "build", "--release", "--offline", "--quiet"]
    log("indicatif-spin: %s (in %s)" % (" ".join(command), home))
    if subprocess.run(command, cwd=home).returncode != 0:
        # A Cargo.lock newer than this cargo (Debian's reads version 3 only):
        # resolve again from the directory source.
        os.unlink(os.path.join(home, "Cargo.lock"))
        subprocess.run(command, cwd=home, check=True)
    return binary


def gum_spin(scratch):
    """Builds gum-spin (the stand-in for `gum spin`, Go, from Debian's
    packages) with the peer's own build.sh into scratch/gum-spin; returns the
    binary. build.sh installs Go and the charmbracelet packages when missing."""
    out = os.path.join(scratch, "gum-spin")
    binary = os.path.join(out, "gum-spin")
    source = os.path.join(os.path.dirname(peer_source()), "gum-spin")
    if os.path.exists(binary) and os.path.getmtime(binary) >= os.path.getmtime(os.path.join(source, "main.go")):
        return binary
    log("gum-spin: %s %s" % (os.path.join(source, "build.sh"), out))
    env = dict(os.environ, GOCACHE=os.path.join(scratch, "gum-spin-gocache"))
    subprocess.run([os.path.join(source, "build.sh"), out], check=True, env=env, stdout=subprocess.DEVNULL)
    return binary


def swift_program(scratch, name):
    """helpers/NAME.swift built with swiftc -O into scratch."""
    output = os.path.join(scratch, name)
    if not os.path.exists(output):
        log("swiftc -O helpers/%s.swift" % name)
        subprocess.run(["swiftc", "-O", os.path.join(HELPERS, name + ".swift"), "-o", output], check=True,
                       stdout=subprocess.DEVNULL)
    return output
