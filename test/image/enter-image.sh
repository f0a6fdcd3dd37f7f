#!/bin/sh
# enter-image.sh ROOT UID:GID COMMAND...: runs COMMAND in a mounted image's root filesystem the way a container
# runtime would, for a machine that cannot run containers. Started by the image test under
# `unshare --mount --pid --fork`, so the mounts below stay private and COMMAND (after the exec chain chroot, env,
# the entrypoint's sh) is PID 1 of its own PID namespace, as in a container.
# The image's root is read-only (`podman image mount`), like a pod's with readOnlyRootFilesystem: /tmp (tsx's
# compile cache) and /app/.data (EXPORT_LOCAL_DIR) get writable tmpfs, as the chart gives them emptyDir volumes.
set -eu
root=$1
user=$2
shift 2
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
mount -t tmpfs -o "mode=0755,uid=${user%%:*},gid=${user##*:}" tmpfs "$root/app/.data"
exec chroot --userspec="$user" "$root" "$@"
