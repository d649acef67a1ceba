package dev.baton.sample;

import dev.baton.ChatResponse;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code GET /sample/draft?topic=...&via=cdi|ejb}: drafts a reply through the route {@code demo} and answers in plain
 * text: the draft, then one line naming what served it and the request id.
 */
@WebServlet("/sample/draft")
public class SampleServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    DraftService drafts;

    @Inject
    DraftsBean ejb;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String topic = request.getParameter("topic");
        if (topic == null || topic.isBlank()) {
            topic = "a refund for a duplicate charge";
        }
        String via = request.getParameter("via") == null ? "cdi" : request.getParameter("via");
        response.setContentType("text/plain");
        response.setCharacterEncoding("UTF-8");
        ChatResponse answer;
        try {
            answer = switch (via) {
                case "cdi" -> drafts.draft(topic);
                case "ejb" -> ejb.replyAsync(topic).get(2, TimeUnit.MINUTES);
                default -> {
                    response.setStatus(400);
                    response.getWriter().println("via must be cdi or ejb, was: " + via);
                    yield null;
                }
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.setStatus(503);
            response.getWriter().println("interrupted");
            return;
        } catch (TimeoutException e) {
            response.setStatus(504);
            response.getWriter().println("no answer within 2 minutes");
            return;
        } catch (ExecutionException | RuntimeException e) {
            FailoverException failure = failoverCause(e);
            if (failure == null) {
                throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
            }
            response.setStatus(failure.httpStatus());
            PrintWriter out = response.getWriter();
            out.println(failure.getMessage());
            failure.requestId().ifPresent(id -> out.println("request " + id));
            return;
        }
        if (answer == null) {
            return;
        }
        ServedBy served = answer.servedBy();
        PrintWriter out = response.getWriter();
        out.println(answer.content());
        out.println("-- served by " + served.connection() + "/" + served.model() + " (" + served.position()
                + " of route " + served.routeName() + ", via " + via + "), request " + answer.requestId());
    }

    /** The {@code FailoverException} behind an exception, unwrapping {@code EJBException}, {@code ExecutionException}, ... */
    private static FailoverException failoverCause(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof FailoverException failover) {
                return failover;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
