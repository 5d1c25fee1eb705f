import dgram from "node:dgram";

/**
 * A tiny authoritative DNS server on 127.0.0.1 for tests (UDP only).
 * Answers A, CNAME and TXT from `records`; unknown names get NXDOMAIN,
 * known names without the asked type an empty NOERROR answer.
 */
export interface DnsRecords {
  [name: string]: { A?: string[]; CNAME?: string; TXT?: string[] };
}

const TYPES = { A: 1, CNAME: 5, TXT: 16 } as const;

function encodeName(name: string) {
  const parts = name.replace(/\.$/, "").split(".").filter(Boolean);
  const bufs = parts.map((p) => Buffer.concat([Buffer.from([Buffer.byteLength(p)]), Buffer.from(p)]));
  return Buffer.concat([...bufs, Buffer.from([0])]);
}

function readQuestion(msg: Buffer) {
  let offset = 12;
  const labels: string[] = [];
  while (msg[offset]! > 0) {
    const len = msg[offset]!;
    labels.push(msg.subarray(offset + 1, offset + 1 + len).toString("latin1"));
    offset += len + 1;
  }
  offset += 1;
  const qtype = msg.readUInt16BE(offset);
  return { name: labels.join(".").toLowerCase(), qtype, end: offset + 4 };
}

function answer(type: number, rdata: Buffer) {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // pointer to the question's name
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4); // IN
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.byteLength, 10);
  return Buffer.concat([head, rdata]);
}

export function buildResponse(query: Buffer, records: DnsRecords): Buffer {
  const { name, qtype, end } = readQuestion(query);
  const entry = records[name];
  const answers: Buffer[] = [];
  if (entry) {
    if (entry.CNAME && (qtype === TYPES.CNAME || qtype === TYPES.A)) answers.push(answer(TYPES.CNAME, encodeName(entry.CNAME)));
    else if (qtype === TYPES.A) for (const ip of entry.A ?? []) answers.push(answer(TYPES.A, Buffer.from(ip.split(".").map(Number))));
    if (qtype === TYPES.TXT) {
      for (const text of entry.TXT ?? []) {
        const chunks: Buffer[] = [];
        const bytes = Buffer.from(text);
        for (let i = 0; i < bytes.byteLength || i === 0; i += 255) {
          const piece = bytes.subarray(i, i + 255);
          chunks.push(Buffer.from([piece.byteLength]), piece);
        }
        answers.push(answer(TYPES.TXT, Buffer.concat(chunks)));
      }
    }
  }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  const rd = query.readUInt16BE(2) & 0x0100;
  header.writeUInt16BE(0x8000 | 0x0400 | rd | 0x0080 | (entry ? 0 : 3), 2); // QR, AA, RD copied, RA, rcode
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, end), ...answers]);
}

/** Starts the server; `records` can be changed between queries. Returns its "127.0.0.1:port". */
export async function startDnsServer(records: DnsRecords) {
  const socket = dgram.createSocket("udp4");
  const queries: string[] = [];
  socket.on("message", (msg, rinfo) => {
    try {
      queries.push(readQuestion(msg).name);
      socket.send(buildResponse(msg, records), rinfo.port, rinfo.address);
    } catch {
      // A malformed query gets no answer.
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    records,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
