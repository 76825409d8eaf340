package dev.degradation.stacks;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.degradation.autoconfigure.DegradationLevelChangedEvent;
import dev.degradation.engine.LevelChange;
import dev.degradation.testapp.UnsecuredTestConfiguration;

/**
 * One application for both web stacks: its handlers are written so that Spring MVC and WebFlux
 * serve them alike (a held request is a {@link CompletableFuture}, which neither stack blocks on).
 */
@UnsecuredTestConfiguration
class StackTestApplication {

	@Bean
	Holds holds() {
		return new Holds();
	}

	@Bean
	Events events() {
		return new Events();
	}

	/**
	 * The level changes the application was told of, as a user's listener is told.
	 */
	static final class Events {

		final List<LevelChange> levels = new CopyOnWriteArrayList<>();

		@EventListener
		void levelChanged(DegradationLevelChangedEvent event) {
			this.levels.add(event.getChange());
		}

	}

	/**
	 * Requests held until the test lets them go, so that a test can fill admission's limit.
	 */
	static final class Holds {

		final AtomicInteger started = new AtomicInteger();

		volatile CompletableFuture<String> release = new CompletableFuture<>();

		void reset() {
			this.release.complete("released");
			this.started.set(0);
			this.release = new CompletableFuture<>();
		}

	}

	@RestController
	static class StackController {

		private final Holds holds;

		StackController(Holds holds) {
			this.holds = holds;
		}

		@GetMapping("/api/items/{id}")
		String item(@PathVariable String id) {
			return "live item " + id;
		}

		@PostMapping("/api/track")
		String track() {
			return "tracked";
		}

		@GetMapping("/api/report")
		String report() {
			return "live report";
		}

		@GetMapping("/api/core")
		String core() {
			return "core";
		}

		@PostMapping("/api/echo")
		String echo(@RequestBody String body) {
			return body;
		}

		@GetMapping("/api/hold")
		CompletableFuture<String> hold() {
			CompletableFuture<String> release = this.holds.release;
			this.holds.started.incrementAndGet();
			return release;
		}

	}

}
