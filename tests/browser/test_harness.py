"""The live server's own guard: every answer's body is closed, even if the browser hangs up."""

from tests.browser.conftest import whole_bodies


class Body:
    def __init__(self, chunks):
        self.chunks = chunks
        self.closed = False

    def __iter__(self):
        return iter(self.chunks)

    def close(self):
        self.closed = True


def serve(kind):
    body = Body([b"a", b"b"])

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", kind)])
        return body

    answer = whole_bodies(app)({}, lambda status, headers, exc_info=None: None)
    return body, answer


def test_a_file_is_read_whole_and_closed_before_the_server_sends_it():
    body, answer = serve("image/png")
    assert answer == [b"ab"]
    assert body.closed


def test_an_event_stream_is_left_to_stream():
    body, answer = serve("text/event-stream")
    assert answer is body
    assert not body.closed
