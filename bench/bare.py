"""The ceiling the throughput benchmark compares against: a bare Flask "hello" page.

Served by the same gunicorn, with the same settings, as the app in the same run.
"""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    """Answer the smallest page Flask can."""
    return "hello"
