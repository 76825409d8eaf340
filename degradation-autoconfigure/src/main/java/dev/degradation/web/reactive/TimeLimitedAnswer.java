package dev.degradation.web.reactive;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.util.StreamUtils;

import dev.degradation.overload.Admission.Admitted;

/**
 * The answer of an admitted exchange, whose caller may read it slowly. An answer written whole (a
 * single value, as a {@link Mono}) is handed to Reactor Netty's buffers at once and needs nothing
 * here; a servlet container sends it as the connection takes it, so there a large one waits for
 * the caller from the moment it is handed over, as below. A streamed one (a {@link Flux}: events,
 * a large resource) is pulled by the server only as fast as the connection takes it, so a caller
 * that does not read stops the stream, and the exchange, with its place, would wait for as long as
 * the caller liked. While the server asks for nothing more, the stream waits for the caller: that
 * time is no part of the latency sample, and once it is longer than the body time-out (the
 * operator's bound, never the caller's deadline), the exchange gives its place back. The rest of
 * the answer is still streamed, whole, without a place. The timer is Reactor's, on its parallel
 * scheduler; nothing blocks.
 *
 * <p>A file answer the server can send from the file itself ({@link ZeroCopyHttpOutputMessage},
 * Reactor Netty's) is still sent so: the server's send is all there is to watch, so all of it is
 * taken as waiting for the caller, and the place is given back once it is longer than the bound.
 * Where the server cannot, the file is read into buffers as Spring would read it, and streamed.
 */
final class TimeLimitedAnswer extends ServerHttpResponseDecorator implements ZeroCopyHttpOutputMessage {

	/** An answer handed over whole that a connection's buffers take at once. */
	private static final int WATCHED_BYTES = 32 * 1024;

	private final Admitted admitted;

	private final long limitNanos;

	/** Whether a large answer was handed to the server whole, and waits for the caller. */
	private volatile boolean handedWhole;

	/** What the server asked for and has not been given yet. Guarded by this. */
	private long demand;

	/** Since when the server has asked for nothing more, or {@code 0}. Guarded by this. */
	private long stalledSince;

	/** Time the stream waited for the server to ask for more. Guarded by this. */
	private long waitedNanos;

	/**
	 * Whether a look at the wait is scheduled, or none is needed any more (the place was given
	 * back). Guarded by this.
	 */
	private boolean watching;

	private volatile boolean finished;

	private volatile @Nullable Disposable check;

	TimeLimitedAnswer(ServerHttpResponse response, Admitted admitted, long limitNanos) {
		super(response);
		this.admitted = admitted;
		this.limitNanos = limitNanos;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		if (body instanceof Mono<? extends DataBuffer> whole) {
			if (ReactorNetty.serves(getDelegate())) {
				return super.writeWith(body);
			}
			// A servlet container writes even a whole answer only as the connection takes it, and
			// the write ends once the caller has read it: a large one waits for the caller from
			// the moment it is handed over.
			return super.writeWith(whole.doOnNext(this::handedWhole)).doFinally((signal) -> wholeSent());
		}
		return super.writeWith(paced(Flux.from(body)));
	}

	private void handedWhole(DataBuffer answer) {
		if (answer.readableByteCount() > WATCHED_BYTES) {
			this.handedWhole = true;
			stalled();
		}
	}

	private void wholeSent() {
		if (this.handedWhole) {
			requested(0);
		}
		finished();
	}

	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		return super.writeAndFlushWith(paced(Flux.from(body)));
	}

	@Override
	public Mono<Void> writeWith(Path file, long position, long count) {
		if (getDelegate() instanceof ZeroCopyHttpOutputMessage zeroCopy) {
			return zeroCopy.writeWith(file, position, count)
				.doOnSubscribe((subscription) -> stalled())
				.doFinally((signal) -> {
					requested(0);
					finished();
				});
		}
		return writeWith(DataBufferUtils.takeUntilByteCount(
				DataBufferUtils.read(new FileSystemResource(file), position, bufferFactory(), StreamUtils.BUFFER_SIZE),
				count));
	}

	/**
	 * The exchange ended: nothing is watched any more.
	 */
	void finished() {
		this.finished = true;
		Disposable check = this.check;
		if (check != null) {
			check.dispose();
		}
	}

	private <T> Flux<T> paced(Flux<T> stream) {
		return stream.doOnRequest(this::requested)
			.doOnNext((item) -> delivered())
			.doFinally((signal) -> finished());
	}

	private void requested(long count) {
		long took = 0;
		synchronized (this) {
			this.demand = (this.demand + count < 0) ? Long.MAX_VALUE : this.demand + count;
			if (this.stalledSince != 0) {
				took = System.nanoTime() - this.stalledSince;
				this.waitedNanos += took;
				this.stalledSince = 0;
			}
		}
		this.admitted.waitedForCaller(took);
	}

	private void delivered() {
		synchronized (this) {
			if (this.demand == Long.MAX_VALUE || --this.demand > 0) {
				return;
			}
			this.demand = 0;
		}
		stalled();
	}

	/**
	 * The answer waits for the caller from now on, until the server asks for more.
	 */
	private void stalled() {
		long delay = -1;
		synchronized (this) {
			this.stalledSince = System.nanoTime() | 1;
			// The wait grows only while the stream is stalled: each stall is looked at once it
			// could reach the bound, and a stream that flows, or waits for its own source, is
			// not looked at at all.
			if (!this.watching) {
				this.watching = true;
				delay = this.limitNanos - this.waitedNanos;
			}
		}
		if (delay >= 0) {
			watch(delay);
		}
	}

	private void watch(long delayNanos) {
		if (!this.finished) {
			// In nanoseconds: a delay cut to whole milliseconds is none within the bound's last one,
			// and the look that finds the bound not yet reached would come again at once.
			this.check = Schedulers.parallel().schedule(this::check, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
		}
	}

	/**
	 * Give the place back once the stream has waited for the caller for as long as a body may
	 * take to arrive, or look again when this stall would have; a stall already over leaves the
	 * next one to be looked at as it begins.
	 */
	private void check() {
		if (this.finished) {
			return;
		}
		long waited;
		boolean stalled;
		synchronized (this) {
			stalled = this.stalledSince != 0;
			waited = this.waitedNanos + (stalled ? System.nanoTime() - this.stalledSince : 0);
			this.watching = stalled || waited >= this.limitNanos;
		}
		if (waited >= this.limitNanos) {
			this.admitted.onIgnore();
		}
		else if (stalled) {
			watch(this.limitNanos - waited);
		}
	}

}
