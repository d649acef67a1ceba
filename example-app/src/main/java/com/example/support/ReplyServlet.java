package com.example.support;

import dev.baton.ChatResponse;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** {@code GET /reply?q=...}: the answer as text, and in a header which account served it. */
@WebServlet("/reply")
public class ReplyServlet extends HttpServlet {

    @Inject
    SupportReplies replies;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String question = request.getParameter("q");
        ChatResponse answer = replies.reply(question == null || question.isBlank() ? "Hello" : question);
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("X-Served-By", answer.servedBy().connection());
        response.getWriter().println(answer.content());
    }
}
