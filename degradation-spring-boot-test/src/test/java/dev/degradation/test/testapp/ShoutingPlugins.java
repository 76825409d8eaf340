package dev.degradation.test.testapp;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shop's plug-ins of {@link Plugins} with a {@code notice} writer that does not answer what
 * the manifest declares (it shouts), for the contract tests to catch.
 */
@Configuration(proxyBeanMethods = false)
public class ShoutingPlugins {

	@Bean
	NoticeKind noticeKind() {
		return new NoticeKind(true);
	}

	@Bean
	StatusBoard statusBoard() {
		return new StatusBoard();
	}

	@Bean
	StatusBoard.Source statusBoardSource(StatusBoard board) {
		return new StatusBoard.Source(board, Clock.systemUTC());
	}

}
