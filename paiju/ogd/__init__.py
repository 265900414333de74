"""The OpenGuanDan (OGD) WebSocket protocol of the NJUPT 掼蛋 AI competition
(as its repository documents it and its server was seen to run).

    codec     OGD cards and actions <-> paiju cards and actions (both ways)
    table     what one seat can know, tracked from the messages (the client's side)
    server    `paiju ogd serve`: competition bots play refereed paiju games
    client    `paiju ogd play`: a paiju agent plays on an OGD-protocol server
    command   the `paiju ogd` command line

The WebSocket library (``websockets``) is the ``ogd`` extra; only ``server`` and
``client`` import it.
"""
