"""A scripted OpenAI-compatible chat server on 127.0.0.1 (stdlib http.server in a thread), driven through the real
``openai`` client by the LLM tests and by benchmarks/llm_measure.py. Each request takes the next action of the
script: a str (the answer), an int (that HTTP status), ("sleep", seconds) (stall past the client timeout),
("raw", bytes) (a raw response body) or a callable(request body) -> one of those. An exhausted script -> HTTP 500.
Never listens on anything but the loopback interface."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Server:
    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except OSError:
                    pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("authorization")})
                act = outer.script.pop(0) if outer.script else 500
                if callable(act):
                    act = act(body)
                if isinstance(act, tuple) and act[0] == "raw":
                    return self._send(200, act[1])
                if isinstance(act, tuple):
                    time.sleep(act[1])
                    act = ""
                if isinstance(act, int):
                    return self._send(act, json.dumps({"error": {"message": "scripted", "type": "x"}}).encode())
                self._send(200, json.dumps({
                    "id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model", ""),
                    "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": act}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)
