package dev.degradation.testapp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.session.MapSessionRepository;
import org.springframework.session.config.annotation.web.http.EnableSpringHttpSession;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring MVC application whose sessions are Spring Session's (an in-memory repository): Spring
 * Session writes a new session's cookie only as the answer commits, not when the handler starts
 * the session, as a servlet container does.
 */
@UnsecuredTestConfiguration
@EnableSpringHttpSession
@Import(SpringSessionTestApplication.WelcomeController.class)
public class SpringSessionTestApplication {

	@Bean
	MapSessionRepository sessionRepository() {
		return new MapSessionRepository(new ConcurrentHashMap<>());
	}

	/**
	 * A page whose answer carries what only its session may see, as a form's CSRF token does,
	 * written to the servlet's stream and left for the server to send as the request ends, as a
	 * handler that writes its answer itself often does.
	 */
	@RestController
	static class WelcomeController {

		@GetMapping("/api/welcome")
		void welcome(HttpServletRequest request, HttpServletResponse response) throws IOException {
			HttpSession session = request.getSession(true);
			response.setContentType("text/plain");
			response.getOutputStream().write(("welcome, session " + session.getId()).getBytes(StandardCharsets.UTF_8));
		}

	}

}
