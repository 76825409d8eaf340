package dev.degradation.web;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * A bounded copy of the body of a live answer of a {@code stale} route, taken as the body is
 * written, to be offered to the route's copies ({@link StaleAnswers.RouteCopies#offer}) once the
 * answer is complete. Both web stacks copy through it, so that the bound and what happens past it
 * are one rule: an answer larger than the bound is not kept, and what was copied of it is freed at
 * once instead of being held until the answer ends.
 *
 * <p>Thread-safe: a reactive answer's buffers may be written from more than one thread.
 */
public final class AnswerCopy {

	private static final byte[] NONE = new byte[0];

	private final int limit;

	private byte[] bytes = NONE;

	private int size;

	private boolean abandoned;

	/**
	 * Create a copy that keeps at most {@code limit} bytes.
	 * @param limit the largest answer kept, in bytes
	 */
	public AnswerCopy(int limit) {
		this.limit = limit;
	}

	/**
	 * Copy one byte written to the answer.
	 * @param b the byte, in its low eight bits
	 */
	public synchronized void append(int b) {
		if (grow(1)) {
			this.bytes[this.size++] = (byte) b;
		}
	}

	/**
	 * Copy bytes written to the answer.
	 * @param bytes the bytes
	 * @param offset where they start
	 * @param length how many
	 */
	public synchronized void append(byte[] bytes, int offset, int length) {
		if (grow(length)) {
			System.arraycopy(bytes, offset, this.bytes, this.size, length);
			this.size += length;
		}
	}

	/**
	 * Copy the remaining bytes of a buffer written to the answer, leaving its position as it was.
	 * @param buffer the buffer
	 */
	public synchronized void append(ByteBuffer buffer) {
		int length = buffer.remaining();
		if (grow(length)) {
			buffer.duplicate().get(this.bytes, this.size, length);
			this.size += length;
		}
	}

	/**
	 * Make room for {@code length} more bytes, or give the copy up when the answer would exceed
	 * the bound.
	 */
	private boolean grow(int length) {
		if (this.abandoned) {
			return false;
		}
		int needed = this.size + length;
		if (needed > this.limit || needed < 0) {
			abandon();
			return false;
		}
		if (needed > this.bytes.length) {
			this.bytes = Arrays.copyOf(this.bytes, Math.min(this.limit, Math.max(256, 2 * needed)));
		}
		return true;
	}

	/**
	 * Give the copy up: the answer is not one to keep (too large, or streamed).
	 */
	public synchronized void abandon() {
		this.abandoned = true;
		this.bytes = NONE;
		this.size = 0;
	}

	/**
	 * Start again from nothing: the answer's buffer was reset before any of it was sent.
	 */
	public synchronized void restart() {
		this.abandoned = false;
		this.bytes = NONE;
		this.size = 0;
	}

	/**
	 * Return the copied body.
	 * @return the bytes copied, or {@code null} when the copy was given up
	 */
	public synchronized byte @Nullable [] body() {
		return this.abandoned ? null : Arrays.copyOf(this.bytes, this.size);
	}

}
