#!/bin/bash
# dist_image.sh - issue 24: `make image` builds contrib/Containerfile with buildah, into a
# private store under a temporary directory (--root/--runroot, the vfs driver: no overlay
# mounts, nothing left behind: see DIST_IMAGE_NS), and the image is what contrib/daemonset.yaml
# runs:
#  - its name is the Makefile's IMAGE, which is the DaemonSet's image: (name and VERSION);
#  - its configuration: entrypoint ["/jitterscope"], no command, linux/amd64, the OCI labels
#    title jitterscope and version VERSION;
#  - its file system holds exactly one file, /jitterscope, mode 0755, identical to
#    build/static/jitterscope (buildah from + buildah mount);
#  - build/jitterscope-VERSION-oci.tar is an OCI archive of it under that name.
# Nothing runs the image (no container runtime here: dist_static.sh runs the same binary in an
# empty root). Root only (77 otherwise), about 4 s.
# cpu1: none - builds and reads an image, runs no measurement
. "$(dirname "$0")/../lib/lib.bash"
. "$(dirname "$0")/../lib/dist_lib.bash"
need_root
need_cmd buildah buildah
need_cmd python3 python3
need_cmd findmnt util-linux
need_cmd unshare util-linux
# buildah keeps, as root, a cache of what it knows about layers in /var/lib/containers/cache
# whatever --root says, and temporary files in /var/tmp: the test runs in a mount namespace
# of its own in which a tmpfs covers /var/lib/containers (made for the test if missing, and
# removed after) and TMPDIR is its own
if [ -z "${DIST_IMAGE_NS:-}" ]; then
	made=
	[ -d /var/lib/containers ] || { mkdir /var/lib/containers && made=1; } ||
		fail "mkdir /var/lib/containers"
	DIST_IMAGE_NS=1 unshare --mount --propagation private -- bash "$0" "$@"
	rc=$?
	[ -z "$made" ] || rmdir /var/lib/containers || rc=1
	exit $rc
fi
mount -t tmpfs -o size=64m,mode=0700 dist_image /var/lib/containers ||
	fail "mount a tmpfs on /var/lib/containers"
export TMPDIR=$TMP
cd "$ROOT" || exit 1
B=(buildah --root "$TMP/storage" --runroot "$TMP/run" --storage-driver vfs)
CTR=
cleanup() {
	if [ -d "$TMP/storage" ]; then
		[ -n "$CTR" ] && "${B[@]}" rm "$CTR" >/dev/null 2>&1
		"${B[@]}" rm --all >/dev/null 2>&1
		"${B[@]}" rmi --all --force >/dev/null 2>&1
	fi
	# vfs mounts nothing; should a mount be left under TMP, leave TMP rather than delete through it
	if findmnt -rn -o TARGET | grep -qF "$TMP"; then
		echo "FAIL: mounts left under $TMP: $(findmnt -rn -o TARGET | grep -F "$TMP")" >&2
		exit 1
	fi
	rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# the image's name: the Makefile's IMAGE, which the DaemonSet must run
IMAGE=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ROOT" --no-print-directory \
	--eval 'print-image: ; @echo $(IMAGE)' print-image) || fail "make print-image"
[ "$IMAGE" = "registry.example.com/jitterscope:$VERSION" ] || fail "IMAGE is '$IMAGE'"
ds=$(sed -n 's/^ *image: *//p' contrib/daemonset.yaml)
[ "$ds" = "$IMAGE" ] || fail "contrib/daemonset.yaml runs '$ds', make image builds '$IMAGE'"
echo "ok: make image builds $IMAGE, the DaemonSet's image"

need_static_build
dist_make image BUILDAH="${B[*]}"
"${B[@]}" images --format '{{.Name}}:{{.Tag}}' >"$TMP/images" || fail "buildah images"
grep -qx "$IMAGE" "$TMP/images" || fail "no image $IMAGE in the store: $(cat "$TMP/images")"

# ---- its configuration
"${B[@]}" inspect --type image "$IMAGE" >"$TMP/inspect.json" || fail "buildah inspect"
python3 - "$TMP/inspect.json" "$VERSION" <<'PY' || fail "the image's configuration"
import json, sys
i = json.load(open(sys.argv[1]))
oci = i["OCIv1"]
cfg = oci["config"]
assert cfg.get("Entrypoint") == ["/jitterscope"], "Entrypoint %s" % cfg.get("Entrypoint")
assert not cfg.get("Cmd"), "Cmd %s" % cfg.get("Cmd")
assert (oci.get("os"), oci.get("architecture")) == ("linux", "amd64"), (oci.get("os"),
                                                                       oci.get("architecture"))
lab = cfg.get("Labels") or {}
assert lab.get("org.opencontainers.image.title") == "jitterscope", lab
assert lab.get("org.opencontainers.image.version") == sys.argv[2], lab
assert len(oci["rootfs"]["diff_ids"]) == 1, "layers: %s" % oci["rootfs"]["diff_ids"]
print("ok: entrypoint %s, linux/amd64, one layer, labels %s" % (
    cfg["Entrypoint"], ", ".join("%s=%s" % (k.split(".")[-1], v) for k, v in sorted(lab.items())
                                 if k.startswith("org.opencontainers"))))
PY

# ---- its file system: the binary alone
CTR=$("${B[@]}" from --pull-never "$IMAGE") || fail "buildah from $IMAGE"
MNT=$("${B[@]}" mount "$CTR") || fail "buildah mount"
have=$(cd "$MNT" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$have" = "./jitterscope " ] || fail "the image holds: $have"
cmp -s "$MNT/jitterscope" "$STATIC" || fail "/jitterscope is not build/static/jitterscope"
[ "$(stat -c %a "$MNT/jitterscope")" = 755 ] || fail "/jitterscope mode $(stat -c %a "$MNT/jitterscope")"
"${B[@]}" umount "$CTR" >/dev/null || fail "buildah umount"
"${B[@]}" rm "$CTR" >/dev/null || fail "buildah rm"
CTR=
echo "ok: the image's file system: /jitterscope alone, build/static/jitterscope"

# ---- the OCI archive
ARCHIVE=$ROOT/build/jitterscope-$VERSION-oci.tar
tar -xOf "$ARCHIVE" index.json >"$TMP/index.json" || fail "$ARCHIVE: no index.json"
python3 - "$TMP/index.json" "$IMAGE" <<'PY' || fail "$ARCHIVE: not the image $IMAGE"
import json, sys
m = json.load(open(sys.argv[1]))["manifests"]
names = [d.get("annotations", {}).get("org.opencontainers.image.ref.name") for d in m]
assert len(m) == 1 and names[0] in (sys.argv[2], sys.argv[2].rsplit(":", 1)[1]), names
print("ok: OCI archive, one manifest named %s" % names[0])
PY
