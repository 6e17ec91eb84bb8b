"""``simdom table``: a local web app to play a deal against bots or follow a real game, with hints, a
tutor, the values with every hand known, and the review after the deal (docs/table.md).

    game.py    the games (play, follow) over the engine façade and the analysis; TableError
    app.py     the Starlette app: the page and its JSON API, a game per id, jobs in the background
    page.py    the page (HTML, CSS, script; nothing from the network)
    server.py  serve(): uvicorn on 127.0.0.1 (or --host), the URL printed, a clean stop on Ctrl-C
"""
