"""The online room: FastAPI app, settings, storage, accounts, lobby."""
