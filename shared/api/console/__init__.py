"""The memory console's static files, served by shared/api/routes/console.py."""
