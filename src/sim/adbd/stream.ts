/**
 * Evidence: packages/modules/adb/protocol.txt (OKAY after each WRTE; the payload limit the CNXN
 * negotiated).
 */
import { A_CLSE, A_OKAY, A_WRTE } from './packet.js';
import { Inbox } from './inbox.js';

/** What a stream needs from its connection. */
export interface PacketSink {
  send(command: number, arg0: number, arg1: number, payload?: Buffer): void;
}

/** Incoming bytes beyond which the stream stops acknowledging the client's WRTEs. */
const INBOX_LIMIT = 256 * 1024;

/**
 * One adb stream (a service the client opened) on the device side. Outgoing bytes are queued and
 * sent as WRTEs no larger than the negotiated payload, one at a time: the next WRTE leaves only after
 * the client's OKAY for the previous one, which is the flow control adb servers rely on.
 */
export class AdbdStream {
  /** Aborted when the client closes the stream or the connection goes away. */
  readonly abort = new AbortController();
  readonly inbox: Inbox;
  /** Bytes of payload this side has written (for the command log). */
  bytesOut = 0;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private inFlight = false;
  private closing = false;
  private closed = false;
  private okayOwed = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly sink: PacketSink,
    readonly localId: number,
    readonly remoteId: number,
    private readonly maxPayload: number,
    /** Runs once when the stream is closed on both sides' account (CLSE sent or received). */
    private readonly onClosed: (stream: AdbdStream) => void,
  ) {
    this.inbox = new Inbox(() => this.maybeAcknowledge());
  }

  /** True once either side closed the stream: further writes are dropped. */
  get isClosed(): boolean {
    return this.closed || this.closing;
  }

  /**
   * Queues bytes for the client. Resolves at once while little is queued, otherwise when the
   * client has taken enough: that is how a command's output is slowed to the client's pace.
   */
  write(data: Buffer): Promise<void> {
    if (this.closed || this.closing || data.length === 0) {
      return Promise.resolve();
    }
    this.pending.push(data);
    this.pendingBytes += data.length;
    this.bytesOut += data.length;
    this.pump();
    if (this.pendingBytes <= this.maxPayload) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The service is done: the stream closes after the queued bytes have been sent. */
  end(): void {
    if (this.closed || this.closing) {
      return;
    }
    this.closing = true;
    this.pump();
  }

  /** The client acknowledged our last WRTE. */
  onOkay(): void {
    this.inFlight = false;
    this.pump();
  }

  /** The client wrote to the stream. */
  onWrite(payload: Buffer): void {
    if (this.closed) {
      return;
    }
    this.inbox.push(payload);
    if (this.inbox.buffered <= INBOX_LIMIT) {
      this.sink.send(A_OKAY, this.localId, this.remoteId);
    } else {
      this.okayOwed = true;
    }
  }

  /** The client closed the stream, or the connection dropped: stop the service. */
  onRemoteClose(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.inbox.end();
    this.releaseWaiters();
    this.abort.abort();
    this.onClosed(this);
  }

  private maybeAcknowledge(): void {
    if (this.okayOwed && !this.closed && this.inbox.buffered <= INBOX_LIMIT) {
      this.okayOwed = false;
      this.sink.send(A_OKAY, this.localId, this.remoteId);
    }
  }

  private pump(): void {
    if (this.closed) {
      return;
    }
    if (!this.inFlight && this.pendingBytes > 0) {
      const payload = this.takePayload();
      this.inFlight = true;
      this.sink.send(A_WRTE, this.localId, this.remoteId, payload);
      if (this.pendingBytes <= this.maxPayload) {
        this.releaseWaiters();
      }
    }
    if (this.closing && this.pendingBytes === 0) {
      // The server keeps the data of WRTEs it received before a CLSE, so there is no need to wait
      // for the last OKAY (adbd does not either).
      this.closed = true;
      this.sink.send(A_CLSE, this.localId, this.remoteId);
      this.inbox.end();
      this.releaseWaiters();
      this.onClosed(this);
    }
  }

  private takePayload(): Buffer {
    const first = this.pending[0]!;
    if (first.length >= this.maxPayload) {
      const out = first.subarray(0, this.maxPayload);
      if (first.length === this.maxPayload) {
        this.pending.shift();
      } else {
        this.pending[0] = first.subarray(this.maxPayload);
      }
      this.pendingBytes -= out.length;
      return out;
    }
    const parts: Buffer[] = [];
    let size = 0;
    while (this.pending.length > 0 && size < this.maxPayload) {
      const head = this.pending[0]!;
      const room = this.maxPayload - size;
      if (head.length <= room) {
        parts.push(head);
        size += head.length;
        this.pending.shift();
      } else {
        parts.push(head.subarray(0, room));
        this.pending[0] = head.subarray(room);
        size += room;
      }
    }
    this.pendingBytes -= size;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
  }

  private releaseWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) {
      wake();
    }
  }
}
