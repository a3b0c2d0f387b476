// A small unpickler for NCCL flight-recorder dumps, used when the capture host has no python3.
// The dumps are written by PyTorch's C++ pickler (protocol 2) and hold only dicts, lists, tuples,
// strings, numbers, booleans and None; typed lists may be wrapped in a torch.jit._pickle global
// (build_intlist, restore_type_tag…), which is read as the identity of its first argument. Anything
// else (tensors, persistent ids) raises, and the caller falls back to keeping the raw file.

class Mark {}
const MARK = new Mark();

interface GlobalRef {
  __global__: string;
}

export class UnpickleError extends Error {}

export function unpickle(buf: Buffer): unknown {
  let pos = 0;
  const stack: unknown[] = [];
  const memo = new Map<number, unknown>();
  const u8 = () => buf[pos++];
  const u16 = () => {
    const v = buf.readUInt16LE(pos);
    pos += 2;
    return v;
  };
  const u32 = () => {
    const v = buf.readUInt32LE(pos);
    pos += 4;
    return v;
  };
  const i32 = () => {
    const v = buf.readInt32LE(pos);
    pos += 4;
    return v;
  };
  const bytes = (n: number) => {
    if (pos + n > buf.length) throw new UnpickleError('truncated pickle');
    const b = buf.subarray(pos, pos + n);
    pos += n;
    return b;
  };
  const line = () => {
    const end = buf.indexOf(0x0a, pos);
    if (end < 0) throw new UnpickleError('truncated pickle');
    const s = buf.toString('latin1', pos, end);
    pos = end + 1;
    return s;
  };
  const popMark = (): unknown[] => {
    for (let k = stack.length - 1; k >= 0; k--) {
      if (stack[k] === MARK) {
        const items = stack.splice(k + 1);
        stack.pop();
        return items;
      }
    }
    throw new UnpickleError('MARK not found');
  };
  const top = () => stack[stack.length - 1];
  const setItems = (d: unknown, kv: unknown[]) => {
    if (!(d instanceof Map)) throw new UnpickleError('SETITEM on a non-dict');
    for (let k = 0; k + 1 < kv.length; k += 2) d.set(kv[k], kv[k + 1]);
  };
  const longLE = (b: Buffer): number | bigint => {
    if (b.length === 0) return 0;
    let v = 0n;
    for (let k = b.length - 1; k >= 0; k--) v = (v << 8n) | BigInt(b[k]);
    if (b[b.length - 1] & 0x80) v -= 1n << BigInt(8 * b.length);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };

  while (pos < buf.length) {
    const op = u8();
    switch (op) {
      case 0x80: pos += 1; break; // PROTO
      case 0x95: pos += 8; break; // FRAME
      // Every value of a tree pickle is an opcode of its own, so it has at most one per byte; more
      // means containers shared by reference (a 400-byte pickle of [a, a] nested 40 deep is 2^40).
      case 0x2e: return toPlain(stack.pop(), { left: buf.length + 1024 }); // STOP
      case 0x28: stack.push(MARK); break;
      case 0x7d: stack.push(new Map()); break; // EMPTY_DICT
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x29: stack.push([]); break; // EMPTY_TUPLE
      case 0x8f: stack.push([]); break; // EMPTY_SET
      case 0x4e: stack.push(null); break; // NONE
      case 0x88: stack.push(true); break;
      case 0x89: stack.push(false); break;
      case 0x4a: stack.push(i32()); break; // BININT
      case 0x4b: stack.push(u8()); break; // BININT1
      case 0x4d: stack.push(u16()); break; // BININT2
      case 0x8a: stack.push(longLE(bytes(u8()))); break; // LONG1
      case 0x8b: stack.push(longLE(bytes(u32()))); break; // LONG4
      case 0x47: { const v = buf.readDoubleBE(pos); pos += 8; stack.push(v); break; } // BINFLOAT
      case 0x49: { const s = line(); stack.push(s === '01' ? true : s === '00' ? false : Number(s)); break; } // INT
      case 0x4c: stack.push(Number(line().replace(/L$/, ''))); break; // LONG
      case 0x58: stack.push(bytes(u32()).toString('utf8')); break; // BINUNICODE
      case 0x8c: stack.push(bytes(u8()).toString('utf8')); break; // SHORT_BINUNICODE
      case 0x8d: { const n = Number(buf.readBigUInt64LE(pos)); pos += 8; stack.push(bytes(n).toString('utf8')); break; } // BINUNICODE8
      case 0x54: stack.push(bytes(u32()).toString('latin1')); break; // BINSTRING
      case 0x55: stack.push(bytes(u8()).toString('latin1')); break; // SHORT_BINSTRING
      case 0x42: stack.push(Buffer.from(bytes(u32()))); break; // BINBYTES
      case 0x43: stack.push(Buffer.from(bytes(u8()))); break; // SHORT_BINBYTES
      case 0x74: stack.push(popMark()); break; // TUPLE
      case 0x85: stack.push([stack.pop()]); break; // TUPLE1
      case 0x86: { const b = stack.pop(); const a = stack.pop(); stack.push([a, b]); break; } // TUPLE2
      case 0x87: { const c = stack.pop(); const b = stack.pop(); const a = stack.pop(); stack.push([a, b, c]); break; } // TUPLE3
      case 0x6c: stack.push(popMark()); break; // LIST
      case 0x64: { const kv = popMark(); const d = new Map(); setItems(d, kv); stack.push(d); break; } // DICT
      case 0x61: { const v = stack.pop(); (top() as unknown[]).push(v); break; } // APPEND
      case 0x65: { const items = popMark(); (top() as unknown[]).push(...items); break; } // APPENDS
      case 0x90: { const items = popMark(); (top() as unknown[]).push(...items); break; } // ADDITEMS
      case 0x73: { const v = stack.pop(); const k = stack.pop(); setItems(top(), [k, v]); break; } // SETITEM
      case 0x75: { const kv = popMark(); setItems(top(), kv); break; } // SETITEMS
      case 0x71: memo.set(u8(), top()); break; // BINPUT
      case 0x72: memo.set(u32(), top()); break; // LONG_BINPUT
      case 0x94: memo.set(memo.size, top()); break; // MEMOIZE
      case 0x68: stack.push(memo.get(u8())); break; // BINGET
      case 0x6a: stack.push(memo.get(u32())); break; // LONG_BINGET
      case 0x63: { const mod = line(); const name = line(); stack.push({ __global__: `${mod}.${name}` } satisfies GlobalRef); break; } // GLOBAL
      case 0x93: { const name = stack.pop(); const mod = stack.pop(); stack.push({ __global__: `${mod}.${name}` }); break; } // STACK_GLOBAL
      case 0x52: { // REDUCE
        const args = stack.pop() as unknown[];
        const fn = stack.pop() as GlobalRef;
        if (!fn || typeof fn !== 'object' || !('__global__' in fn) || !fn.__global__.startsWith('torch.jit._pickle.')) {
          throw new UnpickleError(`unsupported global ${(fn as GlobalRef)?.__global__ ?? '?'}`);
        }
        stack.push(args[0]);
        break;
      }
      case 0x62: stack.pop(); break; // BUILD: state on plain containers is not used by these dumps
      case 0x30: stack.pop(); break; // POP
      case 0x31: popMark(); break; // POP_MARK
      case 0x32: stack.push(top()); break; // DUP
      default:
        throw new UnpickleError(`unsupported pickle opcode 0x${op.toString(16)} at ${pos - 1}`);
    }
  }
  throw new UnpickleError('pickle without STOP');
}

function toPlain(v: unknown, budget: { left: number }): unknown {
  if (--budget.left < 0) throw new UnpickleError('pickle expands to more values than it has bytes (containers shared by reference)');
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, val] of v) o[String(k)] = toPlain(val, budget);
    return o;
  }
  if (Array.isArray(v)) return v.map((x) => toPlain(x, budget));
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v.toString('base64');
  return v;
}
