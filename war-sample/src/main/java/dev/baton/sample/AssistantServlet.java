package dev.baton.sample;

import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.langchain4j.BatonResponseMetadata;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.service.Result;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.PrintWriter;

/**
 * {@code GET /sample/ask?q=...}: asks the {@link TravelAssistant} (LangChain4j over the route {@code mixed}) and
 * answers in plain text: the answer, the tools it called, and what served it.
 */
@WebServlet("/sample/ask")
public class AssistantServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    TravelAssistant assistant;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String question = request.getParameter("q");
        if (question == null || question.isBlank()) {
            question = "What is the weather in Oslo?";
        }
        response.setContentType("text/plain");
        response.setCharacterEncoding("UTF-8");
        PrintWriter out = response.getWriter();
        Result<String> result;
        try {
            result = assistant.ask(question);
        } catch (LangChain4jException e) {
            // LangChain4j's type for the caller, Baton's exception (status, retry advice, record) as the cause.
            if (e.getCause() instanceof FailoverException failure) {
                response.setStatus(failure.httpStatus());
                out.println(e.getClass().getSimpleName() + ": " + failure.getMessage());
                failure.requestId().ifPresent(id -> out.println("request " + id));
                return;
            }
            throw e;
        }
        out.println(result.content());
        result.toolExecutions().forEach(t -> out.println("-- tool " + t.request().name() + " " + t.request().arguments()));
        if (result.finalResponse().metadata() instanceof BatonResponseMetadata baton) {
            ServedBy served = baton.servedBy().orElse(null);
            out.println(served == null ? "-- degraded answer, request " + baton.requestId()
                    : "-- served by " + served.connection() + "/" + served.model() + " (" + served.position()
                    + " of route " + served.routeName() + "), request " + baton.requestId());
        }
    }
}
