// Disk, /dev/shm, quota and ephemeral-storage exhaustion.
import { defineRules } from '../rule.js';

export const diskRules = defineRules([
  {
    id: 'disk.enospc',
    class: 'disk.full',
    patterns: [
      /[Nn]o space left on device/,
      /\bENOSPC\b/,
      /\[Errno 28\]/,
      // (libuv builds without UV_EDQUOT print it by number: "Unknown system error -122".)
      /Disk quota exceeded|\bEDQUOT\b|Unknown system error -122\b/,
      /not enough space on the disk/,
      /out of disk space|[Nn]ot enough (?:free )?disk space|[Ii]nsufficient disk space/,
      /out of shared memory|insufficient shared memory \(shm\)/,
      // torch/csrc/DataLoader.cpp names a worker's SIGBUS as shared memory running out (older releases
      // printed the first sentence alone): the worker's tensors live in /dev/shm.
      /DataLoader worker \(pid \d+\) is killed by signal: Bus error/,
      // Ray spilling objects to a local disk that is over its capacity threshold.
      /\bOutOfDiskError\b|Local disk is full/,
      // SQLite's SQLITE_FULL ("database or disk is full"): a cache or tracker database on a full volume.
      /database or disk is full/,
    ],
    strength: 91,
    why: 'a write failed because the filesystem (disk, /dev/shm or a volume) is full',
    hint: 'A filesystem is full. Find which (df -h, including /dev/shm and the checkpoint/cache volume), clean old checkpoints or caches, move them to a larger volume, or give the container a bigger /dev/shm (--shm-size).',
  },
  {
    // A checkpoint or file write that the OS cut short, in the words the writer uses when the storage
    // under it is full or failing: torch.save's "write(): fd N failed with Input/output error" (old
    // serializer) and "PytorchStreamWriter failed writing file data/3: file write failed" / "unexpected
    // pos X vs Y" (zip serializer), Rust's io::ErrorKind::StorageFull (safetensors, tokenizers), and
    // EIO/EDQUOT on a write. Weaker than ENOSPC itself: the same words can come from a network
    // filesystem losing its server.
    id: 'disk.write_failed',
    class: 'disk.full',
    patterns: [
      /\bwrite\(\): fd \d+ failed with (?:Input\/output error|No space left on device|Disk quota exceeded)/,
      // caffe2/serialize/inline_container.cc: every record and the zip's central directory.
      /PytorchStreamWriter failed writing (?:file|central directory|zip64)|inline_container\.cc.{0,40}file write failed/,
      /\[enforce fail at inline_container\.cc:\d+\] \. unexpected pos \d+ vs \d+/,
      /kind: (?:StorageFull|QuotaExceeded)\b/,
    ],
    strength: 64,
    why: 'a file write (usually a checkpoint save) failed because the storage under it is full or failing',
    hint: 'Writing a file (a checkpoint) failed at the OS level: the volume is most likely full (df -h on the checkpoint/output directory, quotas on shared filesystems) or a network filesystem dropped. Free space or write to a larger volume, keep fewer checkpoints (save_total_limit), and check the storage health if space is not the cause.',
  },
  {
    // CPython's tempfile found no directory it could create a file in ("No usable temporary directory
    // found in ['/tmp', '/var/tmp', '/usr/tmp', …]"): every candidate full (the usual case on a training
    // host) or not writable. Weaker than ENOSPC itself, which names the cause.
    id: 'disk.no_tempdir',
    class: 'disk.full',
    patterns: [/No usable temporary directory found in \[/],
    strength: 60,
    sections: ['log'],
    why: 'Python could not create a temporary file in any temporary directory (full, or not writable)',
    hint: 'No temporary directory is writable: /tmp (and the other candidates) are most likely full (df -h /tmp) or mounted read-only. Free space, or point TMPDIR at a writable volume with room.',
  },
  {
    id: 'disk.ephemeral_storage',
    class: 'disk.full',
    patterns: [
      /low on resource: ephemeral-storage/,
      /ephemeral local storage usage exceeds/,
      /\bDiskPressure\b|node\.kubernetes\.io\/disk-pressure/,
      // The kubelet's own node events (pkg/kubelet/events, eviction manager, image GC): NodeHasDiskPressure,
      // EvictionThresholdMet "Attempting to reclaim ephemeral-storage|nodefs|imagefs", FreeDiskSpaceFailed.
      /\bNodeHasDiskPressure\b/,
      /\bEvictionThresholdMet\b.{0,80}Attempting to reclaim (?:ephemeral-storage|nodefs|imagefs)/,
      /\bFreeDiskSpaceFailed\b|failed to garbage collect required amount of images/,
    ],
    strength: 90,
    why: "the node's ephemeral storage ran low, so the kubelet evicted Pods",
    hint: 'Node ephemeral storage ran out: set ephemeral-storage requests/limits, write large files to a PVC instead of the container filesystem, and clean images/logs on the node.',
  },
]);
